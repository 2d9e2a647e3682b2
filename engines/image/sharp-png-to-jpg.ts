/**
 * The png-to-jpg tool in the container, for images over the edge budget (contract/tools.ts):
 * libvips through sharp, which decodes and encodes in strips on native threads.
 * EXIF orientation applied → alpha flattened onto white → colour converted to sRGB through the
 * embedded ICC profile (sharp's default) → MozJPEG 4:2:0 → the output is decoded again and its size
 * checked before it is returned. Metadata is not copied (privacy).
 */
import sharp, { type OutputInfo } from "sharp";
import { AppError, jpegQuality, MAX_IMAGE_PIXELS, type QualityPreset } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { readImageInfo } from "./image-info.ts";

/**
 * Pixel limit for one image: the tools' declared limit (contract MAX_IMAGE_PIXELS). Measured: decode
 * + MozJPEG needs about 8.5 MB per megapixel on top of the runner's ~130 MB, so 64 MP (8000×8000)
 * stays inside the default 1024 MB job memory cap; MozJPEG takes ~25 s for 64 MP of noisy content,
 * within the 120 s job time limit.
 */
export const SHARP_MAX_PIXELS = MAX_IMAGE_PIXELS;

/** JPEG frame headers hold sides up to 65535 pixels. */
const JPEG_MAX_SIDE = 65_535;

// Jobs run one image each: libvips' operation cache would only hold memory between jobs.
sharp.cache(false);

export const sharpPngToJpg: EngineHandler<{ readonly quality: QualityPreset }> = async (
  inputs,
  options,
  progress,
) => {
  const [input, ...rest] = inputs;
  if (input === undefined) throw new AppError("NO_FILE", "png-to-jpg needs one PNG");
  if (rest.length > 0) throw new AppError("TOO_MANY_FILES", "png-to-jpg converts one PNG at a time");
  const { width, height } = await orientedSize(input.bytes);
  progress(5);
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await sharp(input.bytes, { limitInputPixels: SHARP_MAX_PIXELS, failOn: "error" })
      .rotate()
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .jpeg({ quality: jpegQuality(options.quality), mozjpeg: true, chromaSubsampling: "4:2:0" })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new AppError("IMAGE_DAMAGED", "The PNG could not be decoded.", undefined, messageOf(error));
  }
  progress(90);
  await verifyJpeg(output.data, width, height);
  progress(100);
  return {
    bytes: new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.length),
    facts: { width, height },
  };
};

/**
 * Size after EXIF orientation, read from the header by our own parser (image-info.ts) before
 * libvips sees the bytes; refuses images over the limits, so a huge image never reaches a decoder.
 */
async function orientedSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const info = readImageInfo(bytes);
  if (info.kind !== "png") throw new AppError("IMAGE_DAMAGED", "The file is not a readable PNG.");
  const stored = { width: info.width, height: info.height };
  if (stored.width * stored.height > SHARP_MAX_PIXELS) {
    throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${SHARP_MAX_PIXELS} pixels.`, {
      ...stored,
      maxPixels: SHARP_MAX_PIXELS,
    });
  }
  // Orientations 5–8 turn the image by a quarter: width and height swap.
  const turned = info.orientation >= 5;
  const size = turned ? { width: stored.height, height: stored.width } : stored;
  if (size.width > JPEG_MAX_SIDE || size.height > JPEG_MAX_SIDE) {
    throw new AppError("IMAGE_TOO_LARGE", `JPEG sides are limited to ${JPEG_MAX_SIDE} pixels.`, size);
  }
  return size;
}

/**
 * Decodes the whole output (every entropy-coded block, at 1/8 scale to keep memory small) and
 * checks its format and size: a damaged result is never reported as a success.
 */
async function verifyJpeg(jpeg: Buffer, width: number, height: number): Promise<void> {
  try {
    const metadata = await sharp(jpeg).metadata();
    if (metadata.format !== "jpeg" || metadata.width !== width || metadata.height !== height) {
      throw new Error(
        `got ${metadata.format} ${metadata.width}×${metadata.height}, expected ${width}×${height}`,
      );
    }
    const small = { width: Math.max(1, Math.ceil(width / 8)), height: Math.max(1, Math.ceil(height / 8)) };
    await sharp(jpeg, { failOn: "warning" })
      .resize({ ...small, fit: "fill", kernel: "nearest" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw new AppError("INTERNAL", "The JPEG output failed verification.", undefined, messageOf(error));
  }
}

/** The engine's own text, kept for the log line only (AppError `detail`), never for the API. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
