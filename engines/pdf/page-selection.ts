import { AppError, type PageRange, pageRangeErrorContext, parsePageRanges } from "../../contract/index.ts";

/**
 * The ranges of `text` (spec §5 grammar; blank = every page) for a document of `pageCount` pages.
 * Bad ranges fail with INVALID_OPTIONS and the spec's message key and values in the context, so the
 * client shows the same message it shows when it checks the field itself.
 */
export function selectPageRanges(text: string | undefined, pageCount: number): readonly PageRange[] {
  const parsed = parsePageRanges(text ?? "", pageCount);
  if (!parsed.ok) {
    throw new AppError(
      "INVALID_OPTIONS",
      "The page ranges do not fit the document.",
      pageRangeErrorContext(parsed.error),
    );
  }
  return parsed.ranges;
}

/** The distinct pages (0-based, in page order) that `text` covers (blank: every page). */
export function pagesToStamp(text: string | undefined, pageCount: number): number[] {
  const pages = new Set<number>();
  for (const { start, end } of selectPageRanges(text, pageCount)) {
    for (let page = start; page <= end; page++) pages.add(page - 1);
  }
  return [...pages].sort((a, b) => a - b);
}
