/**
 * Page ranges in the spec's grammar (§5): comma-separated pages or ranges such as "1-3,5,7-9",
 * checked against the page count. The client checks them as the user types and the engines check
 * them again; both report the same error, whose `key` is the locale key (namespace common,
 * `errors.<key>`) of the spec's message and whose other fields are that message's values.
 */

/** An inclusive range of 1-based page numbers. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

export type PageRangeError =
  | { readonly key: "invalidPageRanges" }
  | { readonly key: "invalidRange"; readonly range: string; readonly pages: number }
  | { readonly key: "invalidPage"; readonly page: string; readonly pages: number }
  | { readonly key: "invalidRangeFormat"; readonly range: string }
  | { readonly key: "invalidPageNumber"; readonly page: string };

export type PageRangesResult =
  | { readonly ok: true; readonly ranges: readonly PageRange[] }
  | { readonly ok: false; readonly error: PageRangeError };

const GRAMMAR = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;
const NUMBER = /^\d+$/;

/**
 * Parses `text` for a document of `pageCount` pages. Blank text means every page (one range).
 * Ranges keep the order and repetitions the user typed: "5,1-3" is page 5 then pages 1 to 3.
 */
export function parsePageRanges(text: string, pageCount: number): PageRangesResult {
  const compact = text.replace(/\s+/g, "");
  if (compact === "") return { ok: true, ranges: [{ start: 1, end: pageCount }] };
  if (!GRAMMAR.test(compact)) return { ok: false, error: { key: "invalidPageRanges" } };
  const ranges: PageRange[] = [];
  for (const part of compact.split(",")) {
    const dash = part.indexOf("-");
    if (dash >= 0) {
      const [from, to] = [part.slice(0, dash), part.slice(dash + 1)];
      if (!NUMBER.test(from) || !NUMBER.test(to)) {
        return { ok: false, error: { key: "invalidRangeFormat", range: part } };
      }
      const start = Number(from);
      const end = Number(to);
      if (start < 1 || end > pageCount || start > end) {
        return { ok: false, error: { key: "invalidRange", range: part, pages: pageCount } };
      }
      ranges.push({ start, end });
    } else {
      if (!NUMBER.test(part)) return { ok: false, error: { key: "invalidPageNumber", page: part } };
      const page = Number(part);
      if (page < 1 || page > pageCount) {
        return { ok: false, error: { key: "invalidPage", page: part, pages: pageCount } };
      }
      ranges.push({ start: page, end: page });
    }
  }
  return { ok: true, ranges };
}

/** The 1-based page numbers of `ranges`, in order (repetitions kept). */
export function pagesOf(ranges: readonly PageRange[]): number[] {
  const pages: number[] = [];
  for (const { start, end } of ranges) for (let page = start; page <= end; page++) pages.push(page);
  return pages;
}

/** Ranges written back in the grammar ("1-3,5"), e.g. from pages picked on thumbnails. */
export function formatPageRanges(ranges: readonly PageRange[]): string {
  return ranges.map(({ start, end }) => (start === end ? `${start}` : `${start}-${end}`)).join(",");
}

/** Sorted distinct pages as the fewest ranges: [1,2,3,5] → 1-3,5. */
export function rangesOfPages(pages: Iterable<number>): PageRange[] {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const ranges: { start: number; end: number }[] = [];
  for (const page of sorted) {
    const last = ranges.at(-1);
    if (last && page === last.end + 1) last.end = page;
    else ranges.push({ start: page, end: page });
  }
  return ranges;
}

/** The context of the INVALID_OPTIONS error an engine throws for bad ranges (read back by the client). */
export function pageRangeErrorContext(error: PageRangeError): Record<string, string | number> {
  const { key, ...values } = error;
  return { page_ranges_error: key, ...values };
}
