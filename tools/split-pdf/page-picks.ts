import {
  formatPageRanges,
  type PageRangeError,
  pagesOf,
  parsePageRanges,
  rangesOfPages,
} from "../../client/src/lib/contract";

/** The ranges field read against the page count: empty, valid (with its pages), or the spec's error. */
export type RangesField =
  | { readonly state: "empty" }
  | { readonly state: "valid"; readonly parts: number; readonly pages: ReadonlySet<number> }
  | { readonly state: "invalid"; readonly error: PageRangeError };

export function readRangesField(text: string, pageCount: number): RangesField {
  if (text.trim() === "") return { state: "empty" };
  const parsed = parsePageRanges(text, pageCount);
  if (!parsed.ok) return { state: "invalid", error: parsed.error };
  return { state: "valid", parts: parsed.ranges.length, pages: new Set(pagesOf(parsed.ranges)) };
}

/**
 * The ranges text after a click on a page thumbnail: a click toggles the page; a shift-click adds
 * every page from the last clicked one (`anchor`) to this one. Contiguous pages join into one range.
 */
export function toggledRanges(
  selected: ReadonlySet<number>,
  page: number,
  shift: boolean,
  anchor: number | null,
): string {
  const next = new Set(selected);
  if (shift && anchor !== null) {
    const [from, to] = anchor <= page ? [anchor, page] : [page, anchor];
    for (let p = from; p <= to; p++) next.add(p);
  } else if (next.has(page)) next.delete(page);
  else next.add(page);
  return formatPageRanges(rangesOfPages(next));
}

/** Parts of "every N pages": ceil(pages / n). */
export function partsOfEvery(pageCount: number, perPart: number): number {
  return Math.ceil(pageCount / perPart);
}
