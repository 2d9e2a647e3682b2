/**
 * PNG → JPEG on injected codecs, so the same steps run in workerd (engines/image/codecs.ts) and in
 * Node (engines/image/codecs.node.ts):
 * structure and image-data check → decode → flatten onto white → EXIF orientation → MozJPEG →
 * structural check of the output → ICC profile carried over.
 *
 * Everything from decode to encode is synchronous: concurrent jobs in one isolate never hold their
 * pixel buffers at the same time, so the isolate's peak is one job's peak.
 */
import { AppError } from "../../contract/index.ts";
import type { EngineOutput, ProgressReporter } from "../types.ts";
import { readExifOrientation } from "./exif-orientation.ts";
import { embedIccProfile, type IccProfile, readPngIccProfile } from "./icc-profile.ts";
import type { ImageCodecs, RgbaImage } from "./image-codecs.ts";
import { checkJpeg } from "./jpeg-check.ts";
import { applyOrientation, flattenOntoWhite, isNeutralGrey, orientedSize } from "./pixel-transforms.ts";
import { readPngLayout } from "./png-chunks.ts";
import { checkPngImageData, rebuildPng } from "./png-image-data.ts";

export interface PngToJpgSettings {
  /** MozJPEG quality, 1–100 (contract `jpegQuality`). */
  readonly quality: number;
  /** Images with more pixels are refused (IMAGE_TOO_LARGE) before anything is decoded. */
  readonly maxPixels: number;
}

/** Largest side a JPEG frame header can hold. */
const JPEG_MAX_SIDE = 65_535;

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /memory|alloc|OOM/i.test(error.message);
}

/**
 * Decoder failures: an error the decoder reports means the file is damaged; a trap of the WASM
 * machine (after our own checks passed) is memory exhaustion or a decoder fault, not the user's.
 */
function decodeFailure(error: unknown): AppError {
  if (isOutOfMemory(error)) return new AppError("JOB_OUT_OF_MEMORY", "out of memory while decoding the PNG");
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof WebAssembly.RuntimeError)
    return new AppError("INTERNAL", "The PNG decoder stopped unexpectedly.", undefined, detail);
  return new AppError("IMAGE_DAMAGED", "The PNG could not be decoded.", undefined, detail);
}

function encodeFailure(error: unknown): AppError {
  if (isOutOfMemory(error)) return new AppError("JOB_OUT_OF_MEMORY", "out of memory while encoding the JPEG");
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError("INTERNAL", "The JPEG encoder failed.", undefined, detail);
}

function decodePng(codecs: ImageCodecs, bytes: Uint8Array, width: number, height: number): RgbaImage {
  let image: RgbaImage;
  try {
    image = codecs.decodePng(bytes);
  } catch (error) {
    throw decodeFailure(error);
  }
  if (image.width !== width || image.height !== height || image.data.length !== width * height * 4) {
    throw new AppError(
      "IMAGE_DAMAGED",
      `PNG decoded to ${image.width}×${image.height}, header says ${width}×${height}`,
    );
  }
  return image;
}

/** The profile is kept only when its colour space matches the JPEG's (grey or colour). */
function profileFor(profile: IccProfile | undefined, grayscale: boolean): IccProfile | undefined {
  return profile && (profile.colorSpace === "GRAY") === grayscale ? profile : undefined;
}

export async function convertPngToJpg(
  bytes: Uint8Array,
  settings: PngToJpgSettings,
  loadCodecs: () => Promise<ImageCodecs>,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  const layout = readPngLayout(bytes);
  const { width: storedWidth, height: storedHeight } = layout.header;
  if (storedWidth * storedHeight > settings.maxPixels) {
    throw new AppError(
      "IMAGE_TOO_LARGE",
      `${storedWidth}×${storedHeight} exceeds ${settings.maxPixels} pixels`,
      {
        width: storedWidth,
        height: storedHeight,
        maxPixels: settings.maxPixels,
      },
    );
  }
  const orientation = layout.exif ? readExifOrientation(layout.exif) : 1;
  const [width, height] = orientedSize(storedWidth, storedHeight, orientation);
  if (width > JPEG_MAX_SIDE || height > JPEG_MAX_SIDE) {
    throw new AppError(
      "IMAGE_TOO_LARGE",
      `${width}×${height}: JPEG sides are limited to ${JPEG_MAX_SIDE} pixels`,
      {
        width,
        height,
      },
    );
  }
  progress(2);
  await checkPngImageData(layout);
  const sourceProfile = layout.iccp ? await readPngIccProfile(layout.iccp) : undefined;
  const codecs = await loadCodecs();
  progress(10);

  // Files with a cut-off ending or chunks the decoder may refuse are decoded from a minimal copy,
  // dropped right after decoding.
  const decodable = layout.complete && layout.decoderSafe;
  let image = decodePng(codecs, decodable ? bytes : rebuildPng(layout), storedWidth, storedHeight);
  progress(35);
  flattenOntoWhite(image.data);
  image = applyOrientation(image, orientation);
  const grayscale = isNeutralGrey(image.data) && sourceProfile?.colorSpace !== "RGB";
  progress(45);

  let jpeg: Uint8Array;
  try {
    jpeg = codecs.encodeJpeg(image, { quality: settings.quality, grayscale });
  } catch (error) {
    throw encodeFailure(error);
  }
  progress(95);
  checkJpeg(jpeg, { width, height, components: grayscale ? 1 : 3 });
  const profile = profileFor(sourceProfile, grayscale);
  if (profile) jpeg = embedIccProfile(jpeg, profile.bytes);
  progress(100);
  return { bytes: jpeg, facts: { width, height } };
}
