/**
 * 8-bit quantisation tables for the edge's JPEGs. Below quality ~70 MozJPEG's table 3 holds values
 * above 255, and the WASM encoder (which cannot force baseline tables and stay progressive) writes
 * both tables in 16-bit precision: 128 bytes more than sharp's libjpeg, which clamps the values to
 * 255. Those values sit at high frequencies whose quantised coefficients are nearly always zero, and
 * then the clamp changes nothing but the header: the file is rewritten with 8-bit tables when it
 * decodes to exactly the same pixels, and kept as it is otherwise.
 * (A 1000×1000 gradient at quality 35: 4587 → 4461 bytes, 1.027× → 0.999× sharp's.)
 */

import { concatBytes } from "../bytes.ts";
import type { RgbaImage } from "./image-codecs.ts";
import { jpegHeaderSegments } from "./image-info.ts";

const DQT = 0xdb;

/**
 * The JPEG with 8-bit quantisation tables if that decodes to the same pixels; else the JPEG. The two
 * decodes are compared by digest, so only one decoded image is held at a time.
 */
export function withEightBitTables(jpeg: Uint8Array, decode: (bytes: Uint8Array) => RgbaImage): Uint8Array {
  const clamped = clampedTables(jpeg);
  if (clamped === undefined) return jpeg;
  const before = pixelDigest(decode(jpeg));
  return pixelDigest(decode(clamped)) === before ? clamped : jpeg;
}

/** A 64-bit digest of an image's size and pixels (two multiplicative hashes over 32-bit words). */
function pixelDigest(image: RgbaImage): string {
  const data = image.data.byteOffset % 4 === 0 ? image.data : image.data.slice();
  const words = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? 0;
    a = Math.imul(a ^ word, 0x01000193);
    b = Math.imul((b << 5) | (b >>> 27), 0x85ebca6b) ^ word;
  }
  for (let i = words.length << 2; i < data.length; i++) a = Math.imul(a ^ (data[i] ?? 0), 0x01000193);
  return `${image.width}x${image.height}:${(a >>> 0).toString(16)}:${(b >>> 0).toString(16)}`;
}

/**
 * The JPEG with every 16-bit quantisation table written in 8 bits, values above 255 clamped;
 * undefined when it has no 16-bit table or its header cannot be walked.
 */
export function clampedTables(jpeg: Uint8Array): Uint8Array | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return undefined;
  const parts: Uint8Array[] = [];
  let from = 0;
  try {
    for (const { marker, data } of jpegHeaderSegments(jpeg)) {
      if (marker !== DQT) continue;
      const tables = eightBitTables(data);
      if (tables === null) return undefined;
      if (tables === undefined) continue;
      // The segment's marker and length sit in the 4 bytes before its data.
      const start = data.byteOffset - jpeg.byteOffset - 4;
      parts.push(jpeg.subarray(from, start), segment(DQT, tables));
      from = start + 4 + data.length;
    }
  } catch {
    return undefined;
  }
  if (parts.length === 0) return undefined;
  parts.push(jpeg.subarray(from));
  return concatBytes(parts);
}

/**
 * A DQT segment's tables (its payload) in 8-bit precision: undefined when they all are already,
 * null when the payload is malformed.
 */
function eightBitTables(payload: Uint8Array): Uint8Array | undefined | null {
  const out: number[] = [];
  let wide = false;
  for (let at = 0; at < payload.length; ) {
    const precision = (payload[at] ?? 0) >> 4;
    const size = precision === 0 ? 64 : 128;
    if (precision > 1 || at + 1 + size > payload.length) return null;
    out.push((payload[at] ?? 0) & 0x0f);
    for (let i = 0; i < 64; i++) {
      const value =
        precision === 0
          ? (payload[at + 1 + i] ?? 0)
          : ((payload[at + 1 + 2 * i] ?? 0) << 8) | (payload[at + 2 + 2 * i] ?? 0);
      out.push(Math.min(value, 255));
    }
    wide ||= precision === 1;
    at += 1 + size;
  }
  return wide ? Uint8Array.from(out) : undefined;
}

function segment(marker: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  out.set([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  out.set(payload, 4);
  return out;
}
