/**
 * 8-bit quantisation tables for the edge's JPEGs. Below quality ~70 MozJPEG's table 3 holds values
 * above 255, and the WASM encoder (which cannot force baseline tables and stay progressive) writes
 * both tables in 16-bit precision: 128 bytes more than sharp's libjpeg, which clamps the values to
 * 255. Those values sit at high frequencies whose quantised coefficients are nearly always zero, and
 * then the clamp changes nothing but the header. The scans say so exactly (jpeg-coefficients.ts:
 * no decode, a 64-bit mask per block, so any size the edge takes is checked): the file is rewritten
 * with 8-bit tables when no coefficient at a clamped position is ever non-zero, and kept otherwise.
 * (A 1000×1000 gradient at quality 35: 4587 → 4461 bytes, 1.027× → 0.999× sharp's.)
 */

import { concatBytes } from "../bytes.ts";
import { jpegHeaderSegments } from "./image-info.ts";
import { jpegCoefficients } from "./jpeg-coefficients.ts";
import { DQT, quantTables, SOI } from "./jpeg-markers.ts";

/** The JPEG with 8-bit quantisation tables when that changes no coefficient; else the JPEG. */
export function withEightBitTables(jpeg: Uint8Array): Uint8Array {
  const clamped = clampedTables(jpeg);
  if (clamped === undefined) return jpeg;
  return clampChangesNothing(jpeg) ? clamped : jpeg;
}

/**
 * Whether every coefficient quantised with a value above 255 is zero in every block: then the
 * clamped tables give the same coefficients, and so the same pixels, in any decoder.
 */
export function clampChangesNothing(jpeg: Uint8Array): boolean {
  const coefficients = jpegCoefficients(jpeg);
  if (coefficients === undefined) return false;
  return coefficients.components.every(({ table, used }) => {
    const values = coefficients.tables.get(table);
    return values?.every((value, k) => value <= 255 || used[k] === 0) ?? false;
  });
}

/**
 * The JPEG with every 16-bit quantisation table written in 8 bits, values above 255 clamped;
 * undefined when it has no 16-bit table or its header cannot be walked.
 */
export function clampedTables(jpeg: Uint8Array): Uint8Array | undefined {
  if (jpeg[0] !== 0xff || jpeg[1] !== SOI) return undefined;
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
  const tables = quantTables(payload);
  if (tables === null) return null;
  if (tables.every((table) => table.precision === 0)) return undefined;
  return Uint8Array.from(
    tables.flatMap(({ id, values }) => [id, ...Array.from(values, (v) => Math.min(v, 255))]),
  );
}

function segment(marker: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  out.set([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  out.set(payload, 4);
  return out;
}
