/**
 * The first page of a TIFF (classic or BigTIFF) from its first image file directory (IFD0): size,
 * orientation, samples, alpha and ICC profile, without decoding. Writers may put IFD0 anywhere,
 * often after the image data: when it lies beyond the bytes given, the error's context holds
 * `header_at`, where the directory is.
 */
import { AppError } from "../../contract/index.ts";
import type { Orientation } from "./exif-orientation.ts";

export interface TiffHeader {
  readonly width: number;
  readonly height: number;
  readonly orientation: Orientation;
  readonly samplesPerPixel: number;
  readonly bitsPerSample: number;
  /** Photometric interpretation: 0/1 grey, 2 RGB, 3 palette, 5 CMYK, 6 YCbCr… */
  readonly photometric: number;
  readonly hasAlpha: boolean;
  readonly icc?: Uint8Array;
  readonly metadata: boolean;
}

const TAG = {
  width: 256,
  height: 257,
  bitsPerSample: 258,
  photometric: 262,
  orientation: 274,
  samplesPerPixel: 277,
  extraSamples: 338,
  xmp: 700,
  iptc: 33723,
  exif: 34665,
  gps: 34853,
  icc: 34675,
} as const;

/** Bytes of one value of each TIFF field type (BYTE, ASCII, SHORT, LONG, RATIONAL, …, LONG8). */
export const TYPE_SIZE: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  16: 8,
  17: 8,
  18: 8,
};

function fail(message: string, context?: Record<string, number>): AppError {
  return new AppError("IMAGE_DAMAGED", `TIFF: ${message}`, context);
}

interface Entry {
  readonly type: number;
  readonly count: number;
  /** Where the values are: inside the entry when they fit, else at the offset it holds. */
  readonly at: number;
}

export function readTiffHeader(bytes: Uint8Array): TiffHeader {
  if (bytes.length < 16) throw fail("cut short", { header_at: 16 });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const big = view.getUint16(2, little) === 43;
  const offset = (at: number) => (big ? Number(view.getBigUint64(at, little)) : view.getUint32(at, little));
  const ifd = offset(big ? 8 : 4);
  const countSize = big ? 8 : 2;
  const entrySize = big ? 20 : 12;
  const inline = big ? 8 : 4;
  if (ifd < 8) throw fail(`first directory at ${ifd}`);
  if (ifd + countSize > bytes.length)
    throw fail("directory beyond the bytes read", { header_at: ifd + countSize });
  const count = big ? Number(view.getBigUint64(ifd, little)) : view.getUint16(ifd, little);
  const end = ifd + countSize + count * entrySize;
  if (end > bytes.length) throw fail("directory beyond the bytes read", { header_at: end });
  const entries = new Map<number, Entry>();
  for (let i = 0; i < count; i++) {
    const at = ifd + countSize + i * entrySize;
    const type = view.getUint16(at + 2, little);
    const values = big ? Number(view.getBigUint64(at + 4, little)) : view.getUint32(at + 4, little);
    const valueAt = at + 4 + (big ? 8 : 4);
    const bytesNeeded = (TYPE_SIZE[type] ?? 1) * values;
    entries.set(view.getUint16(at, little), {
      type,
      count: values,
      at: bytesNeeded <= inline ? valueAt : offset(valueAt),
    });
  }
  /** The first value of a SHORT or LONG tag (the only types these tags use). */
  const value = (tag: number, fallback?: number): number => {
    const entry = entries.get(tag);
    if (!entry) {
      if (fallback === undefined) throw fail(`tag ${tag} missing`);
      return fallback;
    }
    if (entry.at + 4 > bytes.length)
      throw fail(`tag ${tag} beyond the bytes read`, { header_at: entry.at + 4 });
    return entry.type === 3 ? view.getUint16(entry.at, little) : view.getUint32(entry.at, little);
  };
  const width = value(TAG.width);
  const height = value(TAG.height);
  if (width === 0 || height === 0) throw fail(`size ${width}×${height}`);
  const orientation = value(TAG.orientation, 1);
  const samplesPerPixel = value(TAG.samplesPerPixel, 1);
  const photometric = value(TAG.photometric, 1);
  const colourSamples = photometric === 2 || photometric === 6 ? 3 : photometric === 5 ? 4 : 1;
  const iccEntry = entries.get(TAG.icc);
  const icc =
    iccEntry && iccEntry.at + iccEntry.count <= bytes.length
      ? bytes.subarray(iccEntry.at, iccEntry.at + iccEntry.count)
      : undefined;
  return {
    width,
    height,
    orientation: (orientation >= 1 && orientation <= 8 ? orientation : 1) as Orientation,
    samplesPerPixel,
    bitsPerSample: value(TAG.bitsPerSample, 1),
    photometric,
    hasAlpha: entries.has(TAG.extraSamples) && samplesPerPixel > colourSamples,
    ...(icc ? { icc } : {}),
    metadata: [TAG.xmp, TAG.iptc, TAG.exif, TAG.gps].some((tag) => entries.has(tag)),
  };
}
