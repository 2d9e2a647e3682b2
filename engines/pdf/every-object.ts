import type * as mupdf from "mupdf";

/** One object of a document's cross-reference table: its number and an indirect reference to it. */
export interface NumberedObject {
  readonly num: number;
  readonly object: mupdf.PDFObject;
}

/**
 * Every object number of the document, from 1 up to the count of objects when the walk starts
 * (objects added meanwhile are not visited; a free entry reads as null), each with an indirect
 * reference to it. Always the reference, never resolve(): a stream resolved through MuPDF.js
 * makes a garbage-collecting save drop its data. Making a reference reads nothing, so the walk
 * itself does not throw on a damaged object; whatever reads it (isStream(), get(), readStream())
 * may, and each caller says what a throwing object means to it.
 */
export function* everyObject(pdf: mupdf.PDFDocument): Generator<NumberedObject> {
  const count = pdf.countObjects();
  for (let num = 1; num < count; num++) yield { num, object: pdf.newIndirect(num) };
}
