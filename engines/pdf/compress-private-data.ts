import type * as mupdf from "mupdf";
import { writeDeflated } from "./compress-streams.ts";
import { everyObject } from "./every-object.ts";

/**
 * Removes what only other applications read and no viewer shows: page-piece data (/PieceInfo,
 * e.g. Illustrator's private copy of the artwork, often larger than the page itself) on the
 * catalog, pages and form XObjects, the TeX engines' notes on forms made from included PDFs, page thumbnails (/Thumb), which viewers draw themselves, and
 * the XMP metadata of single pages, images, forms and fonts (Photoshop and Illustrator embed
 * their whole edit history and a thumbnail there: 87 KB on a one-page file). Acrobat's optimiser
 * and Ghostscript drop all three. The date of a page's or form's last change (/LastModified), which
 * PDF requires only beside page-piece data, goes with it. A LibreOffice "hybrid PDF" carries its whole source document
 * (an ODF package, 389 KB on a 900 KB file) in the trailer's /AdditionalStreams for LibreOffice to
 * edit again: no viewer reads it, Ghostscript drops it, and a save with object streams cannot
 * keep it (the cross-reference stream holds only the standard trailer keys), so it goes too. The document's own metadata (title, author, PDF/A claims) stays;
 * a print output intent goes unless the document claims PDF/A (see claimsPdfA).
 * Returns how many entries went.
 */
export function removePrivateData(pdf: mupdf.PDFDocument): number {
  let removed = 0;
  const drop = (holder: mupdf.PDFObject, key: string) => {
    if (holder.get(key).isNull()) return;
    holder.delete(key);
    removed++;
  };
  drop(pdf.getTrailer().get("Root"), "PieceInfo");
  drop(pdf.getTrailer(), "AdditionalStreams");
  const pages = pdf.countPages();
  for (let index = 0; index < pages; index++) {
    const page = pdf.findPage(index);
    drop(page, "PieceInfo");
    drop(page, "LastModified");
    drop(page, "Thumb");
  }
  const root = pdf.getTrailer().get("Root");
  const catalog = root.isIndirect() ? root.asIndirect() : 0;
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (object.isStream() && object.get("Subtype").asName() === "Form") {
        drop(object, "PieceInfo");
        drop(object, "LastModified");
        for (const key of texPrivateKeys(object)) drop(object, key);
      }
      if ((object.isStream() || object.isDictionary()) && num !== catalog) drop(object, "Metadata");
    } catch {
      // Objects that fail to load are left alone.
    }
  }
  removed += slimDocumentMetadata(root.get("Metadata"));
  const pdfA = claimsPdfA(root.get("Metadata"));
  if (!root.get("OutputIntents").isNull() && !pdfA) drop(root, "OutputIntents");
  if (!pdfA || pdfAPart(root.get("Metadata")) >= 2) deflateMetadata(pdf, root.get("Metadata"));
  return removed;
}

/**
 * The keys pdfTeX, XeTeX and LuaTeX add to a form made from an included PDF page (/PTEX.FileName,
 * the path of the file on the author's disk; /PTEX.PageNumber; /PTEX.InfoDict, a copy of that
 * file's document information): for the TeX engine alone, read by no viewer; Ghostscript drops them.
 */
function texPrivateKeys(form: mupdf.PDFObject): string[] {
  const keys: string[] = [];
  form.forEach((_value, key) => {
    if (String(key).startsWith("PTEX.")) keys.push(String(key));
  });
  return keys;
}

/**
 * Deflates the document's XMP when it is stored as plain text (MuPDF's save leaves metadata
 * streams unfiltered; Acrobat Distiller writes 16 KB of it on a one-page file, a PDF/A-4 file from
 * LaTeX 16 KB of extension schemas). Only PDF/A-1 forbids a filter on the catalog's metadata
 * stream (ISO 19005-1, 6.7.2); PDF/A-2, -3 and -4 require well-formed UTF-8 XMP and no filter
 * rule (as veraPDF's validation profiles check), so only a file claiming part 1 keeps it as text.
 */
function deflateMetadata(pdf: mupdf.PDFDocument, metadata: mupdf.PDFObject): void {
  if (!metadata.isStream() || !metadata.get("Filter").isNull()) return;
  try {
    writeDeflated(pdf, metadata, metadata.readStream().asUint8Array(), 0.1);
  } catch {
    // Metadata that does not read is left as it is.
  }
}

/**
 * Whether the document's XMP says it conforms to PDF/A, which requires its output intent (the
 * ICC profile of the device its colours are meant for). Other output intents (PDF/X print
 * conditions, often a 600 KB CMYK profile) only serve a printing press, which a file resampled
 * for the screen and office printers no longer suits: they go, as with Ghostscript's `/ebook`.
 */
export function claimsPdfA(metadata: mupdf.PDFObject): boolean {
  if (!metadata.isStream()) return false;
  try {
    return metadata.readStream().asString().includes("pdfaid:part");
  } catch {
    return true;
  }
}

/** A PDF/A part number in XMP, as an element or an attribute: `<pdfaid:part>2<` or `pdfaid:part="2"`. */
const PDFA_PART = /pdfaid:part\s*(?:>|=\s*["'])\s*(\d+)/;

/**
 * The PDF/A part the document's XMP claims (1 to 4), or 1 when the claim's part does not read
 * (the strictest rules apply); 0 without a claim.
 */
export function pdfAPart(metadata: mupdf.PDFObject): number {
  if (!claimsPdfA(metadata)) return 0;
  try {
    const part = PDFA_PART.exec(metadata.readStream().asString())?.[1];
    return part === undefined ? 1 : Math.max(1, Number.parseInt(part, 10));
  } catch {
    return 1;
  }
}

/**
 * XMP properties only the producing application reads: embedded thumbnails, Illustrator's swatch
 * and font lists, edit history, the parts a document was placed from. Each is an element with
 * content (written by Adobe applications as `<prefix:Name>…</prefix:Name>`).
 */
const PRIVATE_XMP = [
  "xmp:Thumbnails",
  "xmpTPg:SwatchGroups",
  "xmpTPg:Fonts",
  "xmpTPg:PlateNames",
  "xmpMM:History",
  "xmpMM:Manifest",
  "xmpMM:Pantry",
  "xmpMM:Ingredients",
  "photoshop:DocumentAncestors",
];
const PRIVATE_XMP_ELEMENT = new RegExp(`<(${PRIVATE_XMP.join("|")})[\\s>][\\s\\S]*?</\\1>`, "g");
/** The white space an XMP packet may carry before its end for editing in place (often 2 KB). */
const XMP_PADDING = /\s{64,}(<\?xpacket end=)/;

/**
 * Removes the application-private properties and the in-place-editing padding from the document's
 * XMP metadata (Illustrator files carried 56 KB of thumbnail and swatches there); title, author,
 * dates and conformance claims stay. Returns 1 when it changed the metadata.
 */
function slimDocumentMetadata(metadata: mupdf.PDFObject): number {
  if (!metadata.isStream()) return 0;
  try {
    const xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      metadata.readStream().asUint8Array(),
    );
    const slim = xml.replace(PRIVATE_XMP_ELEMENT, "").replace(XMP_PADDING, "\n$1");
    if (slim.length === xml.length) return 0;
    metadata.writeStream(new TextEncoder().encode(slim));
    return 1;
  } catch {
    // Metadata that is not UTF-8 text is left as it is.
    return 0;
  }
}
