/** PNG → JPEG on injected codecs: the png-to-jpg case of convert-image.ts. */
import type { EngineOutput, ProgressReporter } from "../types.ts";
import { type CodecLoader, convertImage } from "./convert-image.ts";

export interface PngToJpgSettings {
  /** MozJPEG quality, 1–100 (contract `jpegQuality`). */
  readonly quality: number;
  /** Images with more pixels are refused (IMAGE_TOO_LARGE) before anything is decoded. */
  readonly maxPixels: number;
}

export function convertPngToJpg(
  bytes: Uint8Array,
  settings: PngToJpgSettings,
  loadCodecs: CodecLoader,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  return convertImage(bytes, { ...settings, target: "jpeg", sources: ["png"] }, loadCodecs, progress);
}
