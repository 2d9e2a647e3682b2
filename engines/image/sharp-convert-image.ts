/**
 * Image conversion in the container, for images over the edge budget or needing a colour
 * transform or a GIF decoder: libvips through sharp, which decodes and encodes in strips on native
 * threads. The policy is the edge's (conversion-plan.ts, same header code): EXIF orientation
 * applied → alpha flattened onto white when the output has none → colour converted to sRGB
 * through the embedded ICC profile (CMYK through libvips' default CMYK profile when none is
 * embedded) → grey sources stay grey → MozJPEG 4:2:0 / PNG level 9 with adaptive filters / WebP
 * method 4 → the output is read back and its size checked. Metadata is not copied (privacy).
 */
import sharp, { type OutputInfo, type Sharp } from "sharp";
import { AppError, MAX_IMAGE_PIXELS } from "../../contract/index.ts";
import type { EngineOutput, ProgressReporter } from "../types.ts";
import { sharpReadable } from "./container-decode.ts";
import { type ConversionPlan, conversionFacts, type ImageTarget, planConversion } from "./conversion-plan.ts";
import { undecodableImage } from "./format-name.ts";
import type { ImageKind } from "./image-info.ts";

/**
 * Pixel limit for one image: the tools' declared limit (contract MAX_IMAGE_PIXELS). Measured: decode
 * + MozJPEG needs about 8.5 MB per megapixel on top of the runner's ~130 MB, so 64 MP (8000×8000)
 * stays inside the default 1024 MB job memory cap; MozJPEG takes ~25 s for 64 MP of noisy content,
 * within the 120 s job time limit.
 */
export const SHARP_MAX_PIXELS = MAX_IMAGE_PIXELS;

export interface SharpConvertSettings {
  readonly target: ImageTarget;
  /** JPEG/WebP quality, 1–100; PNG output is lossless. */
  readonly quality: number;
  /** The kinds the tool takes; others are refused (UNSUPPORTED_FILE_TYPE). */
  readonly sources?: readonly ImageKind[];
}

// Jobs run one image each: libvips' operation cache would only hold memory between jobs.
sharp.cache(false);

const WHITE = { r: 255, g: 255, b: 255 };

function encoder(pipeline: Sharp, settings: SharpConvertSettings): Sharp {
  const { target, quality } = settings;
  if (target === "jpeg") return pipeline.jpeg({ quality, mozjpeg: true, chromaSubsampling: "4:2:0" });
  if (target === "png") return pipeline.png({ compressionLevel: 9, adaptiveFiltering: true, palette: false });
  return pipeline.webp({ quality, alphaQuality: 100, effort: 4 });
}

export async function sharpConvertImage(
  bytes: Uint8Array,
  settings: SharpConvertSettings,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  const plan = planConversion(bytes, settings.target, SHARP_MAX_PIXELS, settings.sources);
  const { kind } = plan.info;
  progress(5);
  // HEIC and BMP: decoded here to a TIFF with their profile, transforms applied (container-decode.ts).
  const readable = await sharpReadable(bytes, kind, SHARP_MAX_PIXELS);
  progress(readable === bytes ? 5 : 40);
  let output: { data: Buffer; info: OutputInfo };
  let pages = 1;
  try {
    const input = sharp(readable, { limitInputPixels: SHARP_MAX_PIXELS, failOn: "error" });
    pages = (await input.metadata()).pages ?? 1;
    let pipeline = input.rotate();
    if (!plan.alpha) pipeline = pipeline.flatten({ background: WHITE });
    pipeline = pipeline.toColourspace(plan.grey ? "b-w" : "srgb");
    output = await encoder(pipeline, settings).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw undecodableImage(kind, error);
  }
  progress(90);
  await verifyOutput(output.data, settings.target, plan);
  progress(100);
  return {
    bytes: new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.length),
    facts: conversionFacts(plan, plan.info.animated || pages > 1),
  };
}

/**
 * Decodes the whole output (every block, at 1/8 scale to keep memory small) and checks its format
 * and size: a damaged result is never reported as a success.
 */
async function verifyOutput(bytes: Buffer, target: ImageTarget, plan: ConversionPlan): Promise<void> {
  const { width, height } = plan;
  try {
    const metadata = await sharp(bytes).metadata();
    if (metadata.format !== target || metadata.width !== width || metadata.height !== height) {
      throw new Error(
        `got ${metadata.format} ${metadata.width}×${metadata.height}, expected ${width}×${height}`,
      );
    }
    const small = { width: Math.max(1, Math.ceil(width / 8)), height: Math.max(1, Math.ceil(height / 8)) };
    await sharp(bytes, { failOn: "warning" })
      .resize({ ...small, fit: "fill", kernel: "nearest" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw new AppError(
      "INTERNAL",
      `The ${target.toUpperCase()} output failed verification.`,
      undefined,
      messageOf(error),
    );
  }
}

/** The engine's own text, kept for the log line only (AppError `detail`), never for the API. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
