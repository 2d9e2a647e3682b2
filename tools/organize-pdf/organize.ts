/**
 * Organize PDF with MuPDF.js: the document keeps its own objects and MuPDF's page rearrangement
 * (pdf_rearrange_pages, with the catalog entries it drops put back: rearrange.ts) puts the kept
 * pages in their new order, dropping the bookmarks, links and form fields that lead to removed
 * pages and keeping the rest. A page listed twice gets a copy of
 * its own (a page object has one place in the page tree); a blank page takes the size of the page
 * before it. Turns are added to each page's /Rotate: nothing is redrawn.
 */
import type * as mupdf from "mupdf";
import { AppError, pageRangeErrorContext } from "../../contract/index.ts";
import { editPdf } from "../../engines/pdf/edit-pdf.ts";
import { annotationsOf } from "../../engines/pdf/page-annotations.ts";
import type { EngineHandler } from "../../engines/types.ts";
import { type OrderedPage, parseOrder } from "./page-order.ts";
import { rearrangePages, shareable, shareInheritedValues } from "./rearrange.ts";

/** Size of a blank page when the order has no other page to take it from: A4. */
const A4: mupdf.Rect = [0, 0, 595.28, 841.89];

/** Page entries a copy takes as they are (the rest are the page tree's or the original's alone). */
const PAGE_KEYS = [
  "Contents",
  "Group",
  "Thumb",
  "UserUnit",
  "VP",
  "Metadata",
  "BleedBox",
  "TrimBox",
  "ArtBox",
];
/** Entries a page can inherit from the page tree: a copy holds them itself. */
const INHERITED_KEYS = ["Resources", "MediaBox", "CropBox", "Rotate"];

export const organizePdf: EngineHandler<{ order?: string | undefined }> = (inputs, options, progress) =>
  editPdf(inputs, "organize", progress, async (doc) => {
    const count = doc.countPages();
    const parsed = parseOrder(options.order, count);
    if (!parsed.ok) {
      const { key, ...values } = parsed.error;
      const context =
        key === "invalidPage" || key === "invalidRange"
          ? pageRangeErrorContext(parsed.error as Parameters<typeof pageRangeErrorContext>[0])
          : { organize_error: key, ...values };
      throw new AppError("INVALID_OPTIONS", "The page order does not fit the document.", context);
    }
    const order = parsed.pages;
    shareInheritedValues(doc);
    const indices = placePages(doc, order, count);
    progress(30);
    rearrangePages(doc, indices);
    progress(70);
    let turned = 0;
    for (const [index, page] of order.entries()) {
      if (page.rotate === 0) continue;
      const object = doc.findPage(index);
      object.put("Rotate", (rotationOf(object) + page.rotate) % 360);
      turned++;
    }
    const kept = new Set(order.map((page) => page.source).filter((source) => source > 0));
    return {
      removed_pages: count - kept.size,
      blank_pages: order.filter((page) => page.source === 0).length,
      turned_pages: turned,
    };
  });

/**
 * The 0-based page indices to rearrange into, one per ordered page: a source page the first time,
 * then copies and blank pages appended to the document for the rest.
 */
function placePages(doc: mupdf.PDFDocument, order: readonly OrderedPage[], count: number): number[] {
  const used = new Set<number>();
  const indices: number[] = [];
  let appended = count;
  for (const [position, page] of order.entries()) {
    if (page.source !== 0 && !used.has(page.source)) {
      used.add(page.source);
      indices.push(page.source - 1);
      continue;
    }
    const added =
      page.source === 0 ? blankPage(doc, neighbourOf(order, position)) : copyPage(doc, page.source - 1);
    doc.insertPage(-1, added);
    indices.push(appended++);
  }
  return indices;
}

/** The source page (0-based) whose size a blank page at `position` takes: before it, else after. */
function neighbourOf(order: readonly OrderedPage[], position: number): number | undefined {
  for (let i = position - 1; i >= 0; i--) if ((order[i]?.source ?? 0) > 0) return (order[i]?.source ?? 1) - 1;
  for (let i = position + 1; i < order.length; i++)
    if ((order[i]?.source ?? 0) > 0) return (order[i]?.source ?? 1) - 1;
  return undefined;
}

function rotationOf(page: mupdf.PDFObject): number {
  const rotate = page.getInheritable("Rotate");
  const degrees = rotate.isNumber() ? Math.round(rotate.asNumber() / 90) * 90 : 0;
  return ((degrees % 360) + 360) % 360;
}

function boxOf(page: mupdf.PDFObject, key: "MediaBox" | "CropBox"): mupdf.Rect | undefined {
  const box = page.getInheritable(key);
  if (!box.isArray() || box.length !== 4) return undefined;
  return [0, 1, 2, 3].map((i) => box.get(i).asNumber()) as unknown as mupdf.Rect;
}

/** A page with nothing on it, as large and as turned as page `like` (A4 without one). */
function blankPage(doc: mupdf.PDFDocument, like: number | undefined): mupdf.PDFObject {
  const model = like === undefined ? undefined : doc.findPage(like);
  const media = (model && boxOf(model, "MediaBox")) ?? A4;
  const page = doc.addPage(media, 0, {}, "");
  const crop = model && boxOf(model, "CropBox");
  if (crop !== undefined) page.put("CropBox", crop);
  if (model !== undefined && rotationOf(model) !== 0) page.put("Rotate", rotationOf(model));
  return page;
}

/**
 * A second page object drawing the same content with the same resources. Its links and notes are
 * copies (an annotation belongs to one page); form widgets stay with the original, since a field's
 * widget is one place on one page.
 */
function copyPage(doc: mupdf.PDFDocument, index: number): mupdf.PDFObject {
  const original = doc.findPage(index);
  const copy = doc.newDictionary();
  copy.put("Type", doc.newName("Page"));
  // Inherited values are indirect already (shareInheritedValues); the page's own are made so.
  for (const key of INHERITED_KEYS) {
    const own = original.get(key);
    const value = own.isNull() ? original.getInheritable(key) : shareable(doc, original, key, own);
    if (!value.isNull()) copy.put(key, value);
  }
  for (const key of PAGE_KEYS) {
    const value = original.get(key);
    if (!value.isNull()) copy.put(key, shareable(doc, original, key, value));
  }
  const page = doc.addObject(copy);
  const copies = doc.newArray();
  for (const annot of annotationsOf(original)) {
    const subtype = annot.get("Subtype").asName();
    if (subtype === "Widget" || subtype === "Popup") continue;
    const twin = doc.newDictionary();
    const entries: [string, mupdf.PDFObject][] = [];
    annot.forEach((value, key) => {
      if (key !== "P" && key !== "Popup" && key !== "IRT" && key !== "StructParent")
        entries.push([String(key), value]);
    });
    for (const [key, value] of entries) twin.put(key, shareable(doc, annot, key, value));
    twin.put("P", page);
    copies.push(doc.addObject(twin));
  }
  if (copies.length > 0) page.put("Annots", copies);
  return page;
}
