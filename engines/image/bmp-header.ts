/**
 * A Windows or OS/2 bitmap's headers: the 14-byte file header, then the DIB header of one of its
 * versions — BITMAPCOREHEADER (12 bytes, 16-bit sizes), OS/2 2.x (16/64), BITMAPINFOHEADER (40),
 * its V2/V3 extensions (52/56, masks inside), BITMAPV4HEADER (108) and BITMAPV5HEADER (124, which
 * may embed an ICC profile). A positive height is stored bottom-up, a negative one top-down.
 */
import { AppError } from "../../contract/index.ts";

/** BI_RGB, BI_RLE8, BI_RLE4, BI_BITFIELDS, BI_JPEG, BI_PNG, BI_ALPHABITFIELDS. */
export const BMP_COMPRESSION = {
  rgb: 0,
  rle8: 1,
  rle4: 2,
  bitfields: 3,
  jpeg: 4,
  png: 5,
  alphaBitfields: 6,
} as const;

export interface BmpHeader {
  readonly width: number;
  /** Rows, always positive. */
  readonly height: number;
  readonly topDown: boolean;
  readonly bitCount: number;
  readonly compression: number;
  /** Where the pixel rows start. */
  readonly dataOffset: number;
  /** Colour table entries (BGR or BGRX) for 1/4/8-bit images. */
  readonly palette: readonly number[];
  /** Channel masks for 16/32-bit images (BI_BITFIELDS or the default 5-5-5 / 8-8-8). */
  readonly masks: {
    readonly red: number;
    readonly green: number;
    readonly blue: number;
    readonly alpha: number;
  };
  readonly icc?: Uint8Array;
}

const LCS_PROFILE_EMBEDDED = 0x4d424544; // "MBED"

function fail(message: string): AppError {
  return new AppError("IMAGE_DAMAGED", `BMP: ${message}`);
}

export function readBmpHeader(bytes: Uint8Array): BmpHeader {
  if (bytes.length < 26) throw fail("cut short");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dataOffset = view.getUint32(10, true);
  const dibSize = view.getUint32(14, true);
  const core = dibSize === 12;
  if (bytes.length < 14 + Math.min(dibSize, 56)) throw fail("header cut short");
  const width = core ? view.getUint16(18, true) : view.getInt32(18, true);
  const signedHeight = core ? view.getInt16(20, true) : view.getInt32(22, true);
  const bitCount = core ? view.getUint16(24, true) : view.getUint16(28, true);
  const compression = core || dibSize < 20 ? 0 : view.getUint32(30, true);
  if (width <= 0 || signedHeight === 0 || signedHeight === -2147483648) {
    throw fail(`size ${width}×${signedHeight}`);
  }
  if (![1, 2, 4, 8, 16, 24, 32].includes(bitCount)) throw fail(`${bitCount} bits per pixel`);
  let masks =
    bitCount === 16
      ? { red: 0x7c00, green: 0x03e0, blue: 0x001f, alpha: 0 }
      : { red: 0xff0000, green: 0xff00, blue: 0xff, alpha: 0 };
  const hasMasks =
    compression === BMP_COMPRESSION.bitfields || compression === BMP_COMPRESSION.alphaBitfields;
  if (hasMasks) {
    // Masks follow a 40-byte header; V2+ headers hold them at the same place, inside.
    if (bytes.length < 54 + 16) throw fail("masks cut short");
    const alphaMask = compression === BMP_COMPRESSION.alphaBitfields || dibSize >= 56;
    masks = {
      red: view.getUint32(54, true),
      green: view.getUint32(58, true),
      blue: view.getUint32(62, true),
      alpha: alphaMask ? view.getUint32(66, true) : 0,
    };
  } else if (dibSize >= 56 && bitCount === 32 && bytes.length >= 70) {
    // V3+ headers with BI_RGB: an alpha mask may still say the fourth byte is alpha.
    masks = { ...masks, alpha: view.getUint32(66, true) };
  }
  const palette: number[] = [];
  if (bitCount <= 8) {
    const entrySize = core ? 3 : 4;
    const declared = core ? 0 : view.getUint32(46, true);
    const start = 14 + dibSize + (compression === BMP_COMPRESSION.bitfields && dibSize === 40 ? 12 : 0);
    // Writers often store fewer entries than the bit depth allows (and OS/2 headers cannot say how
    // many): no more than fit before the pixels.
    const room = dataOffset > start ? Math.floor((dataOffset - start) / entrySize) : 1 << bitCount;
    const entries = Math.min(declared > 0 && declared <= 1 << bitCount ? declared : 1 << bitCount, room);
    if (start + entries * entrySize > bytes.length) throw fail("colour table cut short");
    for (let i = 0; i < entries; i++) {
      const at = start + i * entrySize;
      palette.push(((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 1] ?? 0) << 8) | (bytes[at] ?? 0));
    }
  }
  let icc: Uint8Array | undefined;
  if (dibSize >= 124 && bytes.length >= 14 + 124 && view.getUint32(70, true) === LCS_PROFILE_EMBEDDED) {
    // The profile's offset is from the start of the DIB header.
    const at = 14 + view.getUint32(126, true);
    const size = view.getUint32(130, true);
    if (size > 0 && at + size <= bytes.length) icc = bytes.subarray(at, at + size);
  }
  return {
    width,
    height: Math.abs(signedHeight),
    topDown: signedHeight < 0,
    bitCount,
    compression,
    dataOffset,
    palette,
    masks,
    ...(icc ? { icc } : {}),
  };
}
