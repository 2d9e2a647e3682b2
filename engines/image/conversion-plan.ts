/**
 * What a conversion will produce, decided from the image's header alone by the same code on both
 * paths (edge WASM and container sharp), so that they agree: the limits (refused before anything
 * decodes), the output's size after EXIF orientation, its channel layout and the facts the result
 * reports. The policy:
 * - EXIF orientation is applied to the pixels; the output needs none.
 * - Grey sources (PNG grey, one-component JPEG) give grey outputs; others give sRGB.
 * - Alpha is kept when the source has it and the target holds it; otherwise flattened onto white.
 * - Metadata (EXIF, GPS, XMP, IPTC, text) is never copied; `metadata_removed` says when there was some.
 * - An animation gives its first frame; `first_frame_only` says so.
 */
import { AppError, type JobFacts } from "../../contract/index.ts";
import { type ImageInfo, type ImageKind, readImageInfo } from "./image-info.ts";

export type ImageTarget = Extract<ImageKind, "jpeg" | "png" | "webp">;

/** Largest side each output format can store (JPEG frame header; WebP's 14-bit sizes). */
const MAX_SIDE: Record<ImageTarget, number> = { jpeg: 65_535, png: 2 ** 31 - 1, webp: 16_383 };

export interface ConversionPlan {
  readonly info: ImageInfo;
  /** Size after EXIF orientation: the output's size. */
  readonly width: number;
  readonly height: number;
  readonly grey: boolean;
  /** The output keeps an alpha channel (else transparency is flattened onto white). */
  readonly alpha: boolean;
}

export function planConversion(
  bytes: Uint8Array,
  target: ImageTarget,
  maxPixels: number,
  sources?: readonly ImageKind[],
): ConversionPlan {
  const info = readImageInfo(bytes);
  if (sources && !sources.includes(info.kind)) {
    throw new AppError("UNSUPPORTED_FILE_TYPE", `The file is a ${info.kind.toUpperCase()} image.`, {
      expected: sources.join(", "),
    });
  }
  const stored = { width: info.width, height: info.height };
  if (stored.width * stored.height > maxPixels) {
    throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${maxPixels} pixels.`, { ...stored, maxPixels });
  }
  // Orientations 5–8 turn the image by a quarter: width and height swap.
  const turned = info.orientation >= 5;
  const width = turned ? stored.height : stored.width;
  const height = turned ? stored.width : stored.height;
  const side = MAX_SIDE[target];
  if (width > side || height > side) {
    throw new AppError("IMAGE_TOO_LARGE", `${target.toUpperCase()} sides are limited to ${side} pixels.`, {
      width,
      height,
    });
  }
  const alpha = target !== "jpeg" && info.hasAlpha !== false;
  return { info, width, height, grey: info.grey, alpha };
}

/** The facts every image conversion reports. */
export function conversionFacts(plan: ConversionPlan, animated = plan.info.animated): JobFacts {
  return {
    width: plan.width,
    height: plan.height,
    metadata_removed: plan.info.metadata,
    first_frame_only: animated,
  };
}
