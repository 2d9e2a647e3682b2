/**
 * What the edge and container image handlers read from a converter tool's declaration: the kinds
 * it takes and the kind it makes (imageConverterTool in contract/tool-kit.ts).
 */
import { AppError, type FileKind, jpegQuality, type QualityPreset } from "../../contract/index.ts";
import type { EngineInput } from "../types.ts";
import type { ImageTarget } from "./conversion-plan.ts";
import { IMAGE_KINDS, type ImageKind } from "./image-info.ts";

export interface ImageConverterDeclaration {
  readonly input: { readonly kinds: readonly FileKind[] };
  readonly output: { readonly kind: FileKind };
}

export interface ImageConverterOptions {
  readonly quality: QualityPreset | number;
}

const TARGETS: readonly FileKind[] = ["jpeg", "png", "webp"] satisfies ImageTarget[];
const SOURCES: readonly FileKind[] = IMAGE_KINDS;

/** The one input of a converter job, its target, the kinds allowed and the quality number. */
export function converterJob(
  tool: ImageConverterDeclaration,
  inputs: readonly EngineInput[],
  options: ImageConverterOptions,
) {
  const [input, ...rest] = inputs;
  if (!input) throw new AppError("NO_FILE", "One image is needed.");
  if (rest.length > 0) throw new AppError("TOO_MANY_FILES", "One image at a time.");
  const target = tool.output.kind;
  if (!TARGETS.includes(target)) throw new Error(`${target} is not an image output`);
  const sources = tool.input.kinds.filter((kind) => SOURCES.includes(kind)) as ImageKind[];
  if (!sources.includes(input.kind as ImageKind)) {
    throw new AppError(
      "UNSUPPORTED_FILE_TYPE",
      `The file is not ${sources.map((k) => k.toUpperCase()).join(" or ")}.`,
      {
        expected: sources.join(", "),
      },
    );
  }
  return {
    bytes: input.bytes,
    target: target as ImageTarget,
    sources,
    quality: jpegQuality(options.quality),
  };
}
