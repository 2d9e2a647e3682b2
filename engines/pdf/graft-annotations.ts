import type * as mupdf from "mupdf";
import { type DestinationRewriter, walkFields } from "./graft-destinations.ts";

/**
 * MuPDF's graftPage copies a page's contents, resources and boxes but not its annotations. They
 * are carried over by grafting the annotation dictionaries themselves (links, comments,
 * highlights, form widgets, popups), which keeps their appearance, borders and actions. Their
 * page references (/P, destinations) are cut before grafting and restored after, see
 * graft-destinations.ts. (Re-creating links through MuPDF's link API instead cost 0.5 ms per
 * link: 12 s on one 2415-page manual.)
 */

/** Where a source document's pages landed in the merged one. */
export interface PagePlacement {
  readonly source: mupdf.PDFDocument;
  readonly target: mupdf.PDFDocument;
  /** Index in `target` of the source's first page. */
  readonly offset: number;
}

/**
 * Page objects looked up once per file: MuPDF drops its page-number cache whenever an object
 * changes, so a lookup per annotation would walk the whole page tree each time.
 */
export function pageObjects(document: mupdf.PDFDocument, from: number, count: number): mupdf.PDFObject[] {
  const pages: mupdf.PDFObject[] = [];
  for (let i = 0; i < count; i++) pages.push(document.findPage(from + i));
  return pages;
}

/** The annotations of one source page to graft, and which of them had a /P (page) entry. */
export interface PageAnnotations {
  readonly annots: mupdf.PDFObject;
  readonly withPage: readonly number[];
  /** Per annotation (same order as `annots`): the source pages its destinations target. */
  readonly targets: readonly (readonly number[])[];
  /** Per annotation: whether it is a link (a split drops links whose target is not kept). */
  readonly isLink: readonly boolean[];
}

export interface DetachedAnnotations {
  readonly perPage: (PageAnnotations | undefined)[];
  /** Links kept. */
  readonly links: number;
  /** Signature values removed. */
  readonly signatures: number;
}

/**
 * Prepares the annotations of the source's pages for grafting: drops links whose internal
 * target does not resolve, removes /P, detaches destinations and removes signature values. Covers
 * every page and the form's field tree before anything is grafted, since a graft follows references
 * across pages (popups, fields with widgets on several pages).
 */
export function detachAnnotations(
  source: mupdf.PDFDocument,
  sourcePages: readonly mupdf.PDFObject[],
  rewriter: DestinationRewriter,
): DetachedAnnotations {
  const perPage: (PageAnnotations | undefined)[] = [];
  const signed = new Set<number>();
  const dropSignature = (field: mupdf.PDFObject) => {
    if (dropSignatureValue(field)) signed.add(field.asIndirect());
  };
  let links = 0;
  for (const [i, sourcePage] of sourcePages.entries()) {
    const annots = sourcePage.get("Annots");
    if (!annots.isArray()) continue;
    const keep = source.newArray();
    const withPage: number[] = [];
    const targets: (readonly number[])[] = [];
    const isLink: boolean[] = [];
    for (let j = 0; j < annots.length; j++) {
      const annot = annots.get(j);
      if (!annot.isDictionary()) continue;
      const { resolves, pages } = rewriter.detach(annot);
      const subtype = annot.get("Subtype").asName();
      if (subtype === "Link") {
        if (!resolves) continue;
        links++;
      } else if (subtype === "Widget") dropSignature(annot);
      if (!annot.get("P").isNull()) {
        annot.delete("P");
        withPage.push(keep.length);
      }
      keep.push(annot);
      targets.push(pages);
      isLink.push(subtype === "Link");
    }
    if (keep.length > 0) perPage[i] = { annots: keep, withPage, targets, isLink };
  }
  const fields = source.getTrailer().get("Root", "AcroForm", "Fields");
  if (fields.isArray()) {
    walkFields(fields, (field) => {
      field.delete("P");
      rewriter.detach(field);
      dropSignature(field);
    });
  }
  return { perPage, links, signatures: signed.size };
}

/**
 * A merged or split document is a new document: the signatures of its sources no longer cover it, and a
 * signature value references the signed document itself (DocMDP /Reference → catalog), which a
 * graft would copy whole. The value goes; the field and its appearance stay, unsigned.
 */
function dropSignatureValue(field: mupdf.PDFObject): boolean {
  if (field.getInheritable("FT").asName() !== "Sig" || field.get("V").isNull()) return false;
  field.delete("V");
  return true;
}

/**
 * Grafts the prepared annotations onto the merged pages. /P is restored only where the source had
 * one: it is optional, and links (which rarely carry it) far outnumber other annotations.
 */
export function graftAnnotations(
  perPage: readonly (PageAnnotations | undefined)[],
  targetPages: readonly mupdf.PDFObject[],
  map: mupdf.PDFGraftMap,
): void {
  for (const [i, prepared] of perPage.entries()) {
    const page = targetPages[i];
    if (prepared !== undefined && page !== undefined) graftPageAnnotations(prepared, page, map);
  }
}

/**
 * Grafts one page's prepared annotations onto its new page. With `isKept` (a document that keeps
 * only some source pages), a link to a page not kept is dropped and any other annotation loses its
 * actions to such pages, so no destination is left pointing nowhere. Returns the source object
 * numbers of the annotations grafted (widgets among them name their form fields).
 */
export function graftPageAnnotations(
  prepared: PageAnnotations,
  page: mupdf.PDFObject,
  map: mupdf.PDFGraftMap,
  isKept?: (sourcePage: number) => boolean,
): number[] {
  const { annots, withPage, targets, isLink } = prepared;
  const reaches = targets.map((pages) => isKept === undefined || pages.every(isKept));
  let grafted: mupdf.PDFObject;
  let positions: number[];
  if (reaches.every((ok, j) => ok || !isLink[j])) {
    // Every annotation stays: one graft of the whole array.
    grafted = map.graftObject(annots);
    positions = [...reaches.keys()];
  } else {
    page.put("Annots", []);
    grafted = page.get("Annots");
    positions = [...reaches.keys()].filter((j) => reaches[j] || !isLink[j]);
    for (const j of positions) grafted.push(map.graftObject(annots.get(j)));
  }
  const withPageSet = new Set(withPage);
  const sources: number[] = [];
  for (const [k, j] of positions.entries()) {
    if (isKept !== undefined) {
      const annot = annots.get(j);
      if (annot.isIndirect()) sources.push(annot.asIndirect());
    }
    if (!withPageSet.has(j) && reaches[j]) continue;
    const copy = grafted.get(k);
    if (withPageSet.has(j)) copy.put("P", page);
    if (!reaches[j]) for (const key of ["A", "AA", "Dest"]) copy.delete(key);
  }
  page.put("Annots", grafted);
  return sources;
}
