import type * as mupdf from "mupdf";
import type { EngineInput } from "../types.ts";
import { everyObject } from "./every-object.ts";
import { isOutOfMemory } from "./open-pdf.ts";
import { editedPdf } from "./write-pdf.ts";

const DECODE_PARMS = Buffer.from("/DecodeParms", "latin1");
/** PDF white space (ISO 32000-2, 7.2.3). */
const WHITE_SPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const OPEN_ARRAY = 0x5b;

/**
 * Inputs with a stream whose DecodeParms array is shorter than its Filter array (ISO 32000 wants
 * one entry a filter; readers take a missing one as no parameters), rewritten with the array padded
 * with nulls. Compressing on save drops an ASCII filter from the front of such a chain together
 * with its DecodeParms entry: MuPDF throws "index out of bounds" on the short array after it has
 * already taken the filter's name off, so no tool could write the file (merge, split, page tools).
 * Only a file whose bytes hold a `/DecodeParms [` is opened for this (a stream's dictionary is never
 * inside an object stream, so the raw bytes show it); the others pass as they are.
 */
export function withFullDecodeParms(inputs: readonly EngineInput[]): EngineInput[] {
  return inputs.map((input) => {
    if (input.kind !== "pdf" || !hasDecodeParmsArray(input.bytes)) return input;
    const padded = padDecodeParms(input.bytes);
    return padded === undefined ? input : { ...input, bytes: padded };
  });
}

/** Whether `/DecodeParms` is followed, after white space, by an array anywhere in the bytes. */
export function hasDecodeParmsArray(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = buffer.indexOf(DECODE_PARMS); at >= 0; at = buffer.indexOf(DECODE_PARMS, at + 1)) {
    let next = at + DECODE_PARMS.length;
    while (next < buffer.length && WHITE_SPACE.has(buffer[next] ?? 0)) next++;
    if (buffer[next] === OPEN_ARRAY) return true;
  }
  return false;
}

/** The document saved with its short DecodeParms arrays padded, or undefined when none was short. */
function padDecodeParms(bytes: Uint8Array): Uint8Array | undefined {
  return editedPdf(bytes, (pdf) => {
    let padded = 0;
    for (const { object } of everyObject(pdf)) {
      if (padStream(object)) padded += 1;
    }
    return padded > 0;
  });
}

/** Pads one stream's DecodeParms array with nulls to its Filter array's length; true if it did. */
function padStream(object: mupdf.PDFObject): boolean {
  try {
    // The indirect reference, never resolve(): a resolved stream loses its data on save.
    if (!object.isStream()) return false;
    const filters = object.get("Filter");
    const parameters = object.get("DecodeParms");
    if (!filters.isArray() || !parameters.isArray() || parameters.length >= filters.length) return false;
    while (parameters.length < filters.length) parameters.push(null);
    return true;
  } catch (error) {
    if (isOutOfMemory(error)) throw error;
    return false;
  }
}
