/**
 * BMP decoder (libvips, and so sharp, has no BMP loader). Own code rather than a package: the npm
 * BMP readers are unmaintained (bmp-js: last release 2017) and miss V4/V5 headers, bit fields or
 * RLE, while the format is small and fully specified by Microsoft's documentation. It reads every
 * header version (bmp-header.ts), 1/2/4/8-bit palettes, 16/24/32-bit pixels with BI_RGB,
 * BI_BITFIELDS or BI_ALPHABITFIELDS masks, RLE8 and RLE4, bottom-up and top-down rows. Output is
 * 8-bit RGBA, top row first. A 32-bit BI_RGB image whose fourth bytes are all zero is opaque (the
 * common writers leave them zero); embedded JPEG/PNG bitmaps (printer formats) are refused.
 */
import { AppError } from "../../contract/index.ts";
import { BMP_COMPRESSION, type BmpHeader, readBmpHeader } from "./bmp-header.ts";

export interface DecodedBmp {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
  readonly hasAlpha: boolean;
  readonly icc?: Uint8Array;
}

function fail(message: string): AppError {
  return new AppError("IMAGE_DAMAGED", `BMP: ${message}`, { image_format: "BMP" });
}

/** Shift and scale turning a masked channel into 0–255. */
function channel(mask: number): (pixel: number) => number {
  if (mask === 0) return () => 255;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (pixel) => Math.round((((pixel & mask) >>> shift) * 255) / max);
}

function setPalette(rgba: Uint8Array, at: number, colour: number | undefined): void {
  const value = colour ?? 0;
  rgba[at] = (value >>> 16) & 0xff;
  rgba[at + 1] = (value >>> 8) & 0xff;
  rgba[at + 2] = value & 0xff;
  rgba[at + 3] = 255;
}

function decodeRows(bytes: Uint8Array, header: BmpHeader, rgba: Uint8Array): void {
  const { width, height, bitCount, dataOffset, palette, masks } = header;
  const stride = Math.ceil((width * bitCount) / 32) * 4;
  // The last row may lack its padding in files written by careless encoders.
  if (dataOffset + stride * (height - 1) + Math.ceil((width * bitCount) / 8) > bytes.length) {
    throw fail("pixel data cut short");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [red, green, blue, alpha] = [masks.red, masks.green, masks.blue, masks.alpha].map(channel) as [
    (p: number) => number,
    (p: number) => number,
    (p: number) => number,
    (p: number) => number,
  ];
  for (let row = 0; row < height; row++) {
    const source = dataOffset + row * stride;
    const y = header.topDown ? row : height - 1 - row;
    let out = y * width * 4;
    for (let x = 0; x < width; x++, out += 4) {
      if (bitCount <= 8) {
        const bit = x * bitCount;
        const byte = bytes[source + (bit >>> 3)] ?? 0;
        const index = (byte >>> (8 - bitCount - (bit & 7))) & ((1 << bitCount) - 1);
        setPalette(rgba, out, palette[index]);
      } else if (bitCount === 24) {
        const at = source + x * 3;
        rgba[out] = bytes[at + 2] ?? 0;
        rgba[out + 1] = bytes[at + 1] ?? 0;
        rgba[out + 2] = bytes[at] ?? 0;
        rgba[out + 3] = 255;
      } else {
        const pixel =
          bitCount === 16 ? view.getUint16(source + x * 2, true) : view.getUint32(source + x * 4, true);
        rgba[out] = red(pixel);
        rgba[out + 1] = green(pixel);
        rgba[out + 2] = blue(pixel);
        rgba[out + 3] = alpha(pixel);
      }
    }
  }
}

/** RLE8/RLE4: runs and absolute groups, with end-of-line, end-of-bitmap and delta escapes. */
function decodeRle(bytes: Uint8Array, header: BmpHeader, rgba: Uint8Array): void {
  const { width, height, palette } = header;
  const four = header.compression === BMP_COMPRESSION.rle4;
  let at = header.dataOffset;
  let x = 0;
  let row = 0;
  const put = (index: number) => {
    if (x < width && row < height) {
      const y = header.topDown ? row : height - 1 - row;
      setPalette(rgba, (y * width + x) * 4, palette[index]);
    }
    x++;
  };
  // Pixels an RLE file skips (deltas, early line ends) are transparent in Windows' decoder; opaque
  // black here keeps the output format free of a mask for what is nearly always a complete picture.
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  while (row < height) {
    if (at + 1 >= bytes.length) throw fail("RLE data cut short");
    const count = bytes[at++] ?? 0;
    const value = bytes[at++] ?? 0;
    if (count > 0) {
      for (let i = 0; i < count; i++) put(four ? (i % 2 === 0 ? value >>> 4 : value & 15) : value);
    } else if (value === 0) {
      x = 0;
      row++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      x += bytes[at++] ?? 0;
      row += bytes[at++] ?? 0;
    } else {
      const length = four ? Math.ceil(value / 2) : value;
      if (at + length > bytes.length) throw fail("RLE data cut short");
      for (let i = 0; i < value; i++) {
        const byte = bytes[at + (four ? i >>> 1 : i)] ?? 0;
        put(four ? (i % 2 === 0 ? byte >>> 4 : byte & 15) : byte);
      }
      at += length + (length % 2);
    }
  }
}

export function decodeBmp(bytes: Uint8Array, maxPixels: number): DecodedBmp {
  const header = readBmpHeader(bytes);
  const { width, height, compression, bitCount } = header;
  if (width * height > maxPixels) {
    throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${maxPixels} pixels.`, {
      width,
      height,
      maxPixels,
    });
  }
  const rgba = new Uint8Array(width * height * 4);
  const rle =
    (compression === BMP_COMPRESSION.rle8 && bitCount === 8) ||
    (compression === BMP_COMPRESSION.rle4 && bitCount === 4);
  const plain =
    compression === BMP_COMPRESSION.rgb ||
    ((compression === BMP_COMPRESSION.bitfields || compression === BMP_COMPRESSION.alphaBitfields) &&
      (bitCount === 16 || bitCount === 32));
  if (rle) decodeRle(bytes, header, rgba);
  else if (plain) decodeRows(bytes, header, rgba);
  else throw fail(`compression ${compression} with ${bitCount} bits per pixel is not supported`);
  let hasAlpha = header.masks.alpha !== 0 && bitCount >= 16 && !rle;
  if (hasAlpha && bitCount === 32 && compression === BMP_COMPRESSION.rgb) {
    let anyAlpha = false;
    for (let i = 3; i < rgba.length && !anyAlpha; i += 4) anyAlpha = rgba[i] !== 0;
    if (!anyAlpha) {
      for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
      hasAlpha = false;
    }
  }
  return { width, height, rgba, hasAlpha, ...(header.icc ? { icc: header.icc } : {}) };
}
