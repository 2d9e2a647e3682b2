import type * as mupdf from "mupdf";

/**
 * The annotation dictionaries of a page's /Annots array, in order. Other entries are skipped: an
 * entry may be null, and MuPDF.js throws a TypeError on get() of a null.
 */
export function* annotationsOf(page: mupdf.PDFObject): Generator<mupdf.PDFObject> {
  const annotations = page.get("Annots");
  for (let i = 0; annotations.isArray() && i < annotations.length; i++) {
    const annotation = annotations.get(i);
    if (annotation.isDictionary()) yield annotation;
  }
}
