/**
 * The `order` field of Organize PDF: comma-separated source pages in their new order, each
 * optionally followed by `@90`, `@180` or `@270` (turned clockwise by that much on top of its own
 * rotation), `0` for a blank page. A run `a-b` (a ≤ b) stands for the pages a to b, so a long
 * document's order fits the API's 4 KB form field. Pages not listed are removed.
 */

/** The syntax the API accepts (spaces removed first). */
export const ORDER_GRAMMAR = /^\d+(-\d+)?(@(90|180|270))?(,\d+(-\d+)?(@(90|180|270))?)*$/;

/** The same syntax with spaces around the entries, as a form field may hold it. */
export const ORDER_FIELD = /^\s*\d+(-\d+)?(@(90|180|270))?(\s*,\s*\d+(-\d+)?(@(90|180|270))?)*\s*$/;

/** Most pages one order makes: repeated runs could otherwise ask for millions. */
export const MAX_ORDER_PAGES = 10_000;

export type QuarterTurn = 0 | 90 | 180 | 270;

/** One page of the result: a source page (1-based) or a blank page (`source` 0), and its turn. */
export interface OrderedPage {
  readonly source: number;
  readonly rotate: QuarterTurn;
}

export type OrderError =
  | { readonly key: "invalidOrder" }
  | { readonly key: "orderRequired" }
  | { readonly key: "invalidPage"; readonly page: string; readonly pages: number }
  | { readonly key: "invalidRange"; readonly range: string; readonly pages: number }
  | { readonly key: "tooManyPages"; readonly max: number };

export type OrderResult =
  | { readonly ok: true; readonly pages: readonly OrderedPage[] }
  | { readonly ok: false; readonly error: OrderError };

/** Parses an order for a document of `pageCount` pages. */
export function parseOrder(text: string | undefined, pageCount: number): OrderResult {
  if (text === undefined) return { ok: false, error: { key: "orderRequired" } };
  const compact = text.replace(/\s+/g, "");
  if (!ORDER_GRAMMAR.test(compact)) return { ok: false, error: { key: "invalidOrder" } };
  const pages: OrderedPage[] = [];
  const tooMany = { ok: false, error: { key: "tooManyPages", max: MAX_ORDER_PAGES } } as const;
  for (const entry of compact.split(",")) {
    const [span = "", turn] = entry.split("@");
    const rotate = Number(turn ?? 0) as QuarterTurn;
    const [from = "", to] = span.split("-");
    const start = Number(from);
    if (to === undefined) {
      if (start > pageCount)
        return { ok: false, error: { key: "invalidPage", page: from, pages: pageCount } };
      if (pages.length === MAX_ORDER_PAGES) return tooMany;
      pages.push({ source: start, rotate });
      continue;
    }
    const end = Number(to);
    if (start < 1 || end > pageCount || start > end) {
      return { ok: false, error: { key: "invalidRange", range: span, pages: pageCount } };
    }
    if (pages.length + end - start + 1 > MAX_ORDER_PAGES) return tooMany;
    for (let page = start; page <= end; page++) pages.push({ source: page, rotate });
  }
  return { ok: true, pages };
}

/**
 * The order written back, shortest form: consecutive source pages with the same turn as runs
 * ("1-12,14@90,0,15-40").
 */
export function formatOrder(pages: readonly OrderedPage[]): string {
  const entries: string[] = [];
  for (let i = 0; i < pages.length; ) {
    const first = pages[i] as OrderedPage;
    let last = i;
    while (
      first.source !== 0 &&
      pages[last + 1]?.source === (pages[last]?.source ?? 0) + 1 &&
      pages[last + 1]?.rotate === first.rotate
    )
      last++;
    const end = (pages[last] as OrderedPage).source;
    const span = last === i ? `${first.source}` : `${first.source}-${end}`;
    entries.push(first.rotate === 0 ? span : `${span}@${first.rotate}`);
    i = last + 1;
  }
  return entries.join(",");
}
