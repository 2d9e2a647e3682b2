/**
 * Decoding of the image kinds libvips reads only with help, in the container: HEIC through
 * heic-decode (libheif + libde265 in WASM; sharp's prebuilt libheif has no HEVC decoder) and BMP
 * through bmp-decode.ts. Their pixels come back as an uncompressed TIFF carrying the file's ICC
 * profile (tiff-write.ts), so the sharp pipelines that follow convert colour to sRGB as they do
 * for JPEG. AVIF and TIFF go to sharp as they are. Every failure names the format (context
 * `image_format`), so the screen can say which kind of image could not be read.
 */
import decodeHeic from "heic-decode";
import { AppError, type FileKind, MAX_IMAGE_PIXELS } from "../../contract/index.ts";
import { decodeBmp } from "./bmp-decode.ts";
import { undecodableImage } from "./format-name.ts";
import { readHeifHeader } from "./heif-header.ts";
import { checkPngBytesDataSize } from "./png-image-data.ts";
import { writeTiff } from "./tiff-write.ts";

/** Kinds sharp cannot open from their own bytes. */
export function needsOwnDecoder(kind: FileKind): boolean {
  return kind === "heic" || kind === "bmp";
}

/** Drops the alpha channel of RGBA pixels. */
function rgbOf(rgba: Uint8Array): Uint8Array {
  const rgb = new Uint8Array((rgba.length / 4) * 3);
  for (let i = 0, o = 0; i < rgba.length; i += 4, o += 3) {
    rgb[o] = rgba[i] ?? 0;
    rgb[o + 1] = rgba[i + 1] ?? 0;
    rgb[o + 2] = rgba[i + 2] ?? 0;
  }
  return rgb;
}

async function heicAsTiff(bytes: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  const header = readHeifHeader(bytes);
  if (header.width * header.height > maxPixels) {
    throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${maxPixels} pixels.`, {
      width: header.width,
      height: header.height,
      maxPixels,
    });
  }
  const image = await decodeHeic({ buffer: bytes });
  const rgba = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length);
  const { width, height } = image;
  return header.hasAlpha
    ? writeTiff({ width, height, channels: 4, data: rgba, icc: header.icc })
    : writeTiff({ width, height, channels: 3, data: rgbOf(rgba), icc: header.icc });
}

function bmpAsTiff(bytes: Uint8Array, maxPixels: number): Uint8Array {
  const { width, height, rgba, hasAlpha, icc } = decodeBmp(bytes, maxPixels);
  return hasAlpha
    ? writeTiff({ width, height, channels: 4, data: rgba, icc })
    : writeTiff({ width, height, channels: 3, data: rgbOf(rgba), icc });
}

/**
 * Bytes sharp can open for an image of `kind`: the same bytes, or (HEIC, BMP) the decoded pixels
 * as a TIFF with the orientation already applied. Refuses images over `maxPixels` before decoding,
 * and a PNG whose image data inflates beyond its declared size (png-image-data.ts).
 */
export async function sharpReadable(
  bytes: Uint8Array,
  kind: FileKind,
  maxPixels = MAX_IMAGE_PIXELS,
): Promise<Uint8Array> {
  if (kind === "png") checkPngBytesDataSize(bytes);
  if (!needsOwnDecoder(kind)) return bytes;
  try {
    return kind === "heic" ? await heicAsTiff(bytes, maxPixels) : bmpAsTiff(bytes, maxPixels);
  } catch (error) {
    throw undecodableImage(kind, error);
  }
}
