/** The edge handler of an image converter tool: WASM codecs in the Worker (convert-image.ts). */
import type { ToolEngine } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { loadEdgeCodecs } from "./codecs.ts";
import { convertImage } from "./convert-image.ts";
import {
  converterJob,
  type ImageConverterDeclaration,
  type ImageConverterOptions,
} from "./converter-tool.ts";

export function edgeImageConverter(
  tool: ImageConverterDeclaration & { readonly engine: ToolEngine },
): EngineHandler<ImageConverterOptions> {
  if (tool.engine.kind !== "edge") throw new Error("the tool has no edge engine");
  const { maxPixels } = tool.engine.edgeBudget;
  return async (inputs, options, progress) => {
    const { bytes, ...settings } = converterJob(tool, inputs, options);
    return convertImage(bytes, { ...settings, maxPixels }, loadEdgeCodecs, progress);
  };
}
