import { type PageRangeError, pagesOf, parsePageRanges } from "../../client/src/lib/contract";

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

/** Parts of "every N pages": ceil(pages / n). */
export function partsOfEvery(pageCount: number, perPart: number): number {
  return Math.ceil(pageCount / perPart);
}
