import type * as mupdf from "mupdf";

/**
 * Removes what only other applications read and no viewer shows: page-piece data (/PieceInfo,
 * e.g. Illustrator's private copy of the artwork, often larger than the page itself) on the
 * catalog, pages and form XObjects, and page thumbnails (/Thumb), which viewers draw themselves.
 * Acrobat's optimiser drops both. Returns how many entries went.
 */
export function removePrivateData(pdf: mupdf.PDFDocument): number {
  let removed = 0;
  const drop = (holder: mupdf.PDFObject, key: string) => {
    if (holder.get(key).isNull()) return;
    holder.delete(key);
    removed++;
  };
  drop(pdf.getTrailer().get("Root"), "PieceInfo");
  const pages = pdf.countPages();
  for (let index = 0; index < pages; index++) {
    const page = pdf.findPage(index);
    drop(page, "PieceInfo");
    drop(page, "Thumb");
  }
  const count = pdf.countObjects();
  for (let num = 1; num < count; num++) {
    // Indirect references only: resolve() on streams makes a garbage-collecting save drop them.
    const object = pdf.newIndirect(num);
    try {
      if (object.isStream() && object.get("Subtype").asName() === "Form") drop(object, "PieceInfo");
    } catch {
      // Objects that fail to load are left alone.
    }
  }
  return removed;
}
