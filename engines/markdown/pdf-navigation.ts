/**
 * What MuPDF's PDF writer leaves out of a laid-out HTML document, put back on the written PDF:
 * link annotations (external addresses as they are, in-document anchors as destinations) and the
 * outline MuPDF builds from the headings. Positions move by the page margins the layout used.
 */
import type * as mupdf from "mupdf";

/** Where the laid-out page sits on the PDF page. */
export interface Placement {
  readonly dx: number;
  readonly dy: number;
}

type OutlineItem = NonNullable<ReturnType<mupdf.Document["loadOutline"]>>[number];

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** The PDF's link address for an HTML link: external as it is, an anchor as a page position. */
function targetOf(source: mupdf.Document, pdf: mupdf.PDFDocument, uri: string, at: Placement): string | null {
  if (EXTERNAL.test(uri)) return uri;
  if (!uri.startsWith("#")) return null;
  try {
    const dest = source.resolveLinkDestination(uri);
    if (dest.page < 0) return null;
    return pdf.formatLinkURI({ ...dest, type: "XYZ", x: dest.x + at.dx, y: dest.y + at.dy, zoom: 0 });
  } catch {
    return null;
  }
}

export function addLinks(source: mupdf.Document, pdf: mupdf.PDFDocument, at: Placement): number {
  let added = 0;
  for (let index = 0; index < source.countPages(); index++) {
    const htmlPage = source.loadPage(index);
    const links = htmlPage.getLinks();
    if (links.length > 0) {
      const pdfPage = pdf.loadPage(index);
      for (const link of links) {
        const target = targetOf(source, pdf, link.getURI(), at);
        if (target === null) continue;
        const [x0, y0, x1, y1] = link.getBounds();
        pdfPage.createLink([x0 + at.dx, y0 + at.dy, x1 + at.dx, y1 + at.dy], target);
        added += 1;
      }
      pdfPage.destroy();
    }
    htmlPage.destroy();
  }
  return added;
}

function insertItems(
  source: mupdf.Document,
  pdf: mupdf.PDFDocument,
  iterator: mupdf.OutlineIterator,
  items: readonly OutlineItem[],
  at: Placement,
) {
  for (const item of items) {
    const uri = item.uri === undefined ? undefined : (targetOf(source, pdf, item.uri, at) ?? undefined);
    iterator.insert({ title: item.title ?? "", uri, open: true });
    if (item.down !== undefined && item.down.length > 0) {
      // The iterator now stands after the inserted item: step back onto it and into its children.
      iterator.prev();
      iterator.down();
      insertItems(source, pdf, iterator, item.down, at);
      iterator.up();
      iterator.next();
    }
  }
}

/** The outline of the headings; returns the number of entries. */
export function addOutline(source: mupdf.Document, pdf: mupdf.PDFDocument, at: Placement): number {
  const outline = source.loadOutline();
  if (outline === null || outline.length === 0) return 0;
  const iterator = pdf.outlineIterator();
  insertItems(source, pdf, iterator, outline, at);
  iterator.destroy();
  const count = (items: readonly OutlineItem[]): number =>
    items.reduce((sum, item) => sum + 1 + count(item.down ?? []), 0);
  return count(outline);
}
