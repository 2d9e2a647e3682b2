import { deflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";

/** A stream is rewritten only when this share of it or more is saved (less is not worth the time). */
const MIN_SAVING = 0.05;
/** Lossless filters without parameters: a stream coded only with these is rewritten as plain Flate. */
const PLAIN_FILTERS = new Set([
  "FlateDecode",
  "ASCII85Decode",
  "ASCIIHexDecode",
  "LZWDecode",
  "RunLengthDecode",
]);
/** Streams the save writes itself. */
const STRUCTURE_TYPES = new Set(["ObjStm", "XRef"]);

/**
 * Deflates again, at the highest level, streams a producer coded weakly: Flate at a low level
 * (figures from plotting tools saved 10 %; pdfTeX streams are already at the best level), LZW,
 * run-length, and text encodings (ASCII85 adds a quarter to the data it wraps). Only streams coded
 * with those filters alone and without parameters (predictors) are touched, so the decoded data
 * is the same, byte for byte. Returns the bytes saved.
 */
export function redeflateStreams(pdf: mupdf.PDFDocument): number {
  let saved = 0;
  for (const { object } of everyObject(pdf)) {
    try {
      if (!object.isStream()) continue;
      if (!codedPlainly(object)) continue;
      const type = object.get("Type");
      if (type.isName() && STRUCTURE_TYPES.has(type.asName())) continue;
      saved += writeDeflated(pdf, object, object.readStream().asUint8Array(), MIN_SAVING);
    } catch {
      // A stream that does not decode cleanly is left exactly as it is.
    }
  }
  return saved;
}

/**
 * Replaces the stream's data with `data` deflated at the highest level, when that saves at least
 * `minSaving` of its bytes as stored. Returns the bytes saved (0 when it was left as it was).
 */
export function writeDeflated(
  pdf: mupdf.PDFDocument,
  stream: mupdf.PDFObject,
  data: Uint8Array,
  minSaving: number,
): number {
  const before = stream.readRawStream().getLength();
  const again = deflateSync(data, { level: 9, memLevel: 9 });
  if (again.length > before * (1 - minSaving)) return 0;
  stream.writeRawStream(again);
  stream.put("Filter", pdf.newName("FlateDecode"));
  stream.delete("DecodeParms");
  return before - again.length;
}

/** Whether the stream is coded only with parameterless lossless filters (and at least one). */
export function codedPlainly(stream: mupdf.PDFObject): boolean {
  const parameters = stream.get("DecodeParms");
  if (parameters.isDictionary()) return false;
  if (parameters.isArray()) {
    for (let i = 0; i < parameters.length; i++) if (!parameters.get(i).isNull()) return false;
  }
  const filter = stream.get("Filter");
  if (filter.isName()) return PLAIN_FILTERS.has(filter.asName());
  if (!filter.isArray() || filter.length === 0) return false;
  for (let i = 0; i < filter.length; i++) {
    const name = filter.get(i);
    if (!name.isName() || !PLAIN_FILTERS.has(name.asName())) return false;
  }
  return true;
}
