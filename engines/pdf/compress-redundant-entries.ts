import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";
import { isNumbered } from "./object-kinds.ts";
import { xmpRepeatsInfo } from "./xmp-info.ts";

/**
 * Removes document-level entries that say nothing a reader does not already know:
 * - an interactive form with no field (`/Fields []`, no XFA) while no page holds a widget, whose
 *   default resources hold only fonts every reader has built in (not embedded): iText and others
 *   write one with Helvetica, ZapfDingbats and a 1.2 KB encoding (half a kilobyte deflated) on
 *   documents that never had a field, and a viewer adding a field supplies those itself. A form
 *   that embeds a font for its fields to be filled with stays;
 * - the document's XMP metadata when it repeats the document information dictionary and nothing
 *   else (see xmpRepeatsInfo): the title, author and dates stay in /Info, which every reader shows;
 * - page boxes equal to the value a reader takes without them (ISO 32000-1, 14.11.2 and table 30):
 *   a crop box equal to the media box, bleed, trim and art boxes equal to the crop box, a media or
 *   crop box equal to the one the page inherits;
 * - a form XObject's /FormType 1 and identity /Matrix (the only type and the default matrix, table
 *   95), and the /ProcSet of resources, obsolete since PDF 1.4 and ignored by readers (14.2).
 *   A stream's dictionary is never packed into an object stream: these bytes are saved as written.
 * Returns how many entries went.
 */
export function removeRedundantEntries(pdf: mupdf.PDFDocument, pdfA: boolean): number {
  const root = pdf.getTrailer().get("Root");
  let removed = 0;
  // Each step on its own: what does not read is left as it is.
  const attempt = (step: () => number) => {
    try {
      removed += step();
    } catch {
      // Left as it was.
    }
  };
  attempt(() => (isEmptyForm(pdf, root.get("AcroForm")) ? deleteEntry(root, "AcroForm") : 0));
  attempt(() => {
    const metadata = root.get("Metadata");
    const repeats = !pdfA && metadata.isStream() && xmpRepeatsInfo(metadata, pdf.getTrailer().get("Info"));
    return repeats ? deleteEntry(root, "Metadata") : 0;
  });
  const pages = pdf.countPages();
  for (let index = 0; index < pages; index++) attempt(() => removeDefaultBoxes(pdf.findPage(index)));
  for (const { object } of everyObject(pdf)) attempt(() => removeDefaultFormEntries(object));
  return removed;
}

function deleteEntry(dictionary: mupdf.PDFObject, key: string): number {
  dictionary.delete(key);
  return 1;
}

const IDENTITY = [1, 0, 0, 1, 0, 0];

/** Removes a form's default /FormType and /Matrix and the /ProcSet of the object's resources. */
function removeDefaultFormEntries(object: mupdf.PDFObject): number {
  if (!object.isDictionary() && !object.isStream()) return 0;
  let removed = 0;
  const resources = object.get("Resources");
  if (resources.isDictionary() && !resources.get("ProcSet").isNull()) {
    resources.delete("ProcSet");
    removed++;
  }
  if (!object.isStream() || object.get("Subtype").asName() !== "Form") return removed;
  if (isNumbered(object.get("FormType"), 1)) {
    object.delete("FormType");
    removed++;
  }
  const matrix = object.get("Matrix");
  if (
    matrix.isArray() &&
    matrix.length === 6 &&
    IDENTITY.every((value, i) => matrix.get(i).asNumber() === value)
  ) {
    object.delete("Matrix");
    removed++;
  }
  return removed;
}

/** A form dictionary without fields or XFA, with no embedded font, in a document no page of which holds a widget. */
function isEmptyForm(pdf: mupdf.PDFDocument, form: mupdf.PDFObject): boolean {
  if (!form.isDictionary()) return false;
  const fields = form.get("Fields");
  if (fields.isArray() ? fields.length > 0 : !fields.isNull()) return false;
  if (!form.get("XFA").isNull() || embedsFont(form.get("DR", "Font"))) return false;
  const pages = pdf.countPages();
  for (let index = 0; index < pages; index++) {
    const annotations = pdf.findPage(index).get("Annots");
    if (!annotations.isArray()) continue;
    for (let i = 0; i < annotations.length; i++) {
      const subtype = annotations.get(i).get("Subtype");
      if (!subtype.isName() || subtype.asName() === "Widget") return false;
    }
  }
  return true;
}

/** Whether a font of the dictionary is embedded, or is not a dictionary that says it is not. */
function embedsFont(fonts: mupdf.PDFObject): boolean {
  if (fonts.isNull()) return false;
  if (!fonts.isDictionary()) return true;
  let embeds = false;
  fonts.forEach((font) => {
    const subtype = font.get("Subtype");
    const simple = subtype.isName() && ["Type1", "TrueType", "MMType1"].includes(subtype.asName());
    const descriptor = font.get("FontDescriptor");
    const embedded =
      descriptor.isDictionary() &&
      ["FontFile", "FontFile2", "FontFile3"].some((key) => !descriptor.get(key).isNull());
    if (!simple || embedded) embeds = true;
  });
  return embeds;
}

/** Boxes that fall back to the crop box when absent (table 30). */
const CROP_BOX_DEFAULTS = ["BleedBox", "TrimBox", "ArtBox"] as const;
/** How far up the page tree an inherited attribute is looked for (cycles end there). */
const MAX_TREE_DEPTH = 64;

/** Removes the boxes of `page` that equal their defaults; returns how many went. */
function removeDefaultBoxes(page: mupdf.PDFObject): number {
  let removed = 0;
  const inheritedMedia = inherited(page.get("Parent"), "MediaBox");
  const media = rectangle(page.get("MediaBox")) ?? inheritedMedia;
  if (media === null) return 0;
  if (inheritedMedia !== null && sameRectangle(rectangle(page.get("MediaBox")), inheritedMedia)) {
    page.delete("MediaBox");
    removed++;
  }
  const inheritedCrop = inherited(page.get("Parent"), "CropBox");
  const crop = rectangle(page.get("CropBox")) ?? inheritedCrop ?? media;
  const cropDefault = inheritedCrop ?? media;
  if (!page.get("CropBox").isNull() && sameRectangle(rectangle(page.get("CropBox")), cropDefault)) {
    page.delete("CropBox");
    removed++;
  }
  for (const key of CROP_BOX_DEFAULTS) {
    if (page.get(key).isNull() || !sameRectangle(rectangle(page.get(key)), crop)) continue;
    page.delete(key);
    removed++;
  }
  return removed;
}

/** The rectangle `key` of the nearest page-tree node from `node` up that has it. */
function inherited(node: mupdf.PDFObject, key: string): number[] | null {
  let at = node;
  for (let depth = 0; depth < MAX_TREE_DEPTH && at.isDictionary(); depth++) {
    if (!at.get(key).isNull()) return rectangle(at.get(key));
    at = at.get("Parent");
  }
  return null;
}

/** A rectangle as [left, bottom, right, top] (corners in either order), or null when it does not read. */
export function rectangle(value: mupdf.PDFObject): number[] | null {
  if (!value.isArray() || value.length !== 4) return null;
  const numbers: number[] = [];
  for (let i = 0; i < 4; i++) {
    const item = value.get(i);
    if (!item.isNumber()) return null;
    numbers.push(item.asNumber());
  }
  const [x1, y1, x2, y2] = numbers as [number, number, number, number];
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

function sameRectangle(a: number[] | null, b: number[] | null): boolean {
  return a !== null && b !== null && a.every((value, i) => value === b[i]);
}
