import { createHash } from "node:crypto";
import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";
import { annotationsOf } from "./page-annotations.ts";

/** How deep direct dictionaries and arrays are followed when references are rewritten. */
const MAX_DEPTH = 64;
/** Stream types that belong to the file structure rather than to its content. */
const STRUCTURE_TYPES = new Set(["ObjStm", "XRef", "Metadata"]);

/**
 * Merges streams that are byte-for-byte the same (same dictionary, same encoded data) — images,
 * fonts, forms, patterns a producer wrote once per use — into one object, by pointing every
 * reference at the first copy; the save's garbage collection then drops the others. A hash of
 * dictionary and data finds them in one pass (MuPDF's `garbage=deduplicate` compares objects
 * pairwise and ran over 2 minutes on a 59k-object manual). Page contents and annotation
 * appearances are never shared: an editor that rewrites one of them in place (filling a form
 * field updates its widget's appearance) would change the others too. Returns how many copies went.
 */
export function mergeDuplicateStreams(pdf: mupdf.PDFDocument): number {
  const firstByHash = new Map<string, number>();
  const duplicateOf = new Map<number, number>();
  const editable = editableStreams(pdf);
  for (const { num, object } of everyObject(pdf)) {
    if (editable.has(num)) continue;
    try {
      if (!object.isStream()) continue;
      const type = object.get("Type");
      if (type.isName() && STRUCTURE_TYPES.has(type.asName())) continue;
      const hash = createHash("sha256");
      hash.update(dictionaryText(object));
      hash.update(object.readRawStream().asUint8Array());
      const key = hash.digest("base64");
      const first = firstByHash.get(key);
      if (first === undefined) firstByHash.set(key, num);
      else duplicateOf.set(num, first);
    } catch {
      // A stream that cannot be read stays as it is.
    }
  }
  if (duplicateOf.size === 0) return 0;
  for (const { object } of everyObject(pdf)) {
    try {
      redirect(pdf, object, duplicateOf, 0);
    } catch {
      // An object that cannot be read keeps its references.
    }
  }
  redirect(pdf, pdf.getTrailer(), duplicateOf, 0);
  return duplicateOf.size;
}

/** Streams editors rewrite in place: page contents and annotation appearances (normal, down, rollover). */
function editableStreams(pdf: mupdf.PDFDocument): Set<number> {
  const streams = new Set<number>();
  const add = (object: mupdf.PDFObject) => {
    if (object.isIndirect()) streams.add(object.asIndirect());
    else if (object.isArray() || object.isDictionary()) {
      object.forEach((item) => {
        add(item);
      });
    }
  };
  const pages = pdf.countPages();
  for (let index = 0; index < pages; index++) {
    const page = pdf.findPage(index);
    add(page.get("Contents"));
    for (const annotation of annotationsOf(page)) {
      const appearances = annotation.get("AP");
      if (!appearances.isDictionary()) continue;
      // Each of N, D, R is a stream, or a dictionary of streams by state (checkboxes, radio buttons).
      appearances.forEach((appearance) => {
        add(appearance);
      });
    }
  }
  return streams;
}

/** A stream's dictionary as text, without /Length (the same data may be written with other lengths). */
function dictionaryText(stream: mupdf.PDFObject): string {
  const parts: string[] = [];
  stream.forEach((value, key) => {
    if (key !== "Length") parts.push(`/${String(key)} ${value.toString(true)}`);
  });
  return parts.sort().join("");
}

/** Points every reference to a duplicate (in `holder` and the direct objects inside it) at its first copy. */
function redirect(
  pdf: mupdf.PDFDocument,
  holder: mupdf.PDFObject,
  duplicateOf: Map<number, number>,
  depth: number,
) {
  if (depth > MAX_DEPTH || !(holder.isDictionary() || holder.isArray())) return;
  holder.forEach((value, key) => {
    if (value.isIndirect()) {
      const first = duplicateOf.get(value.asIndirect());
      if (first !== undefined) holder.put(key, pdf.newIndirect(first));
      return;
    }
    redirect(pdf, value, duplicateOf, depth + 1);
  });
}
