/**
 * PNG → 8-bit RGBA with fast-png (pure TypeScript: a damaged file throws and leaves nothing
 * behind, unlike the WASM decoder it replaces, which leaked its memory on failure). Every PNG
 * form becomes RGBA: grey and palette expanded, bit depths 1/2/4 scaled, 16-bit reduced to 8 as
 * libvips does (high byte), tRNS turned into alpha. An APNG gives its default image.
 */
import { type DecodedPng, decode } from "fast-png";
import { concatBytes } from "../bytes.ts";
import type { RgbaImage } from "./image-codecs.ts";
import { checkPngBytesDataSize } from "./png-image-data.ts";

/** Samples of row-packed data at `depth` bits, unpacked to one value per element. */
function unpack(png: DecodedPng): Uint8Array | Uint16Array {
  const { width, height, channels, depth, data } = png;
  if (depth >= 8) return data as Uint8Array | Uint16Array;
  const perRow = width * channels;
  const rowBytes = Math.ceil((perRow * depth) / 8);
  const out = new Uint8Array(perRow * height);
  const mask = (1 << depth) - 1;
  for (let y = 0; y < height; y++) {
    for (let i = 0; i < perRow; i++) {
      const bit = i * depth;
      const byte = data[y * rowBytes + (bit >> 3)] ?? 0;
      out[y * perRow + i] = (byte >> (8 - depth - (bit & 7))) & mask;
    }
  }
  return out;
}

/** An IEND chunk: length 0, type, CRC. */
const IEND = new Uint8Array([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** The chunks that hold the pixels; fast-png also parses the others and fails on malformed ones. */
const PIXEL_CHUNKS = new Set(["IHDR", "PLTE", "tRNS", "IDAT"]);

/**
 * A copy with only the pixel chunks, as they are, then IEND: what browsers and libpng show for a
 * file with a malformed text or other ancillary chunk, or whose ending was cut off after complete
 * image data.
 */
function pixelChunksOnly(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const end = at + 12 + view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === "IEND" || end > bytes.length) break;
    if (PIXEL_CHUNKS.has(type)) parts.push(bytes.subarray(at, end));
    at = end;
  }
  parts.push(IEND);
  return concatBytes(parts);
}

function decodeTolerant(bytes: Uint8Array): DecodedPng {
  try {
    return decode(bytes);
  } catch (error) {
    const trimmed = pixelChunksOnly(bytes);
    if (trimmed.length === bytes.length) throw error;
    return decode(trimmed);
  }
}

export function decodePngPixels(bytes: Uint8Array): RgbaImage {
  // fast-png inflates the whole stream before it looks at the size: a lying file is refused first.
  checkPngBytesDataSize(bytes);
  const png = decodeTolerant(bytes);
  const { width, height, channels, depth, palette, transparency } = png;
  const pixels = width * height;
  // 8-bit RGBA, the common case: fast-png's own buffer, without a copy.
  if (channels === 4 && depth === 8 && !palette && png.data.length === pixels * 4) {
    return { width, height, data: png.data as Uint8Array };
  }
  const samples = unpack(png);
  if (samples.length < pixels * channels) throw new Error("PNG image data is incomplete");
  const out = new Uint8Array(pixels * 4);
  if (palette) {
    for (let p = 0; p < pixels; p++) {
      const entry = palette[samples[p] ?? 0];
      if (!entry) throw new Error("PNG palette index out of range");
      out.set([entry[0] ?? 0, entry[1] ?? 0, entry[2] ?? 0, entry[3] ?? 255], p * 4);
    }
    return { width, height, data: out };
  }
  const max = 2 ** depth - 1;
  // 16-bit: the high byte; 1/2/4-bit grey: scaled to the full 8-bit range.
  const to8 =
    depth === 16
      ? (v: number) => v >> 8
      : depth < 8
        ? (v: number) => Math.round((v * 255) / max)
        : (v: number) => v;
  const grey = channels <= 2;
  const hasAlpha = channels === 2 || channels === 4;
  const colour = grey ? 1 : 3;
  // tRNS on grey or RGB images: one sample value (or RGB triple) is fully transparent.
  const key = !hasAlpha && transparency && transparency.length >= colour ? transparency : undefined;
  for (let p = 0, i = 0; p < pixels; p++, i += channels) {
    const o = p * 4;
    const r = samples[i] ?? 0;
    const g = grey ? r : (samples[i + 1] ?? 0);
    const b = grey ? r : (samples[i + 2] ?? 0);
    out[o] = to8(r);
    out[o + 1] = to8(g);
    out[o + 2] = to8(b);
    let alpha = hasAlpha ? to8(samples[i + colour] ?? max) : 255;
    if (key && r === key[0] && (grey || (g === key[1] && b === key[2]))) alpha = 0;
    out[o + 3] = alpha;
  }
  return { width, height, data: out };
}
