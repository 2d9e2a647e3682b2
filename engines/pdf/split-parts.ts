import { AppError, type PageRange } from "../../contract/index.ts";
import { selectPageRanges } from "./page-selection.ts";

/** How a split cuts the document (the split-pdf tool's options). */
export interface SplitOptions {
  /** "ranges": each comma-separated range is a part; "every-page"; "every-n": parts of N pages. */
  readonly split_mode: "ranges" | "every-page" | "every-n";
  readonly page_ranges?: string | undefined;
  /** N of "every-n". */
  readonly pages_per_part: number;
}

/** The parts of a document of `pageCount` pages, in order, each an inclusive 1-based range. */
export function splitParts(options: SplitOptions, pageCount: number): PageRange[] {
  switch (options.split_mode) {
    case "ranges":
      return [...selectPageRanges(options.page_ranges, pageCount)];
    case "every-page":
      return chunks(pageCount, 1);
    case "every-n":
      if (!Number.isInteger(options.pages_per_part) || options.pages_per_part < 1) {
        throw new AppError("INVALID_OPTIONS", "The number of pages per part must be a whole number from 1.");
      }
      return chunks(pageCount, options.pages_per_part);
  }
}

function chunks(pageCount: number, size: number): PageRange[] {
  const parts: PageRange[] = [];
  for (let start = 1; start <= pageCount; start += size) {
    parts.push({ start, end: Math.min(pageCount, start + size - 1) });
  }
  return parts;
}

/** "report" + pages 1–3 → "report-pages-1-3.pdf"; page 5 → "report-page-5.pdf". */
export function partName(stem: string, { start, end }: PageRange): string {
  return start === end ? `${stem}-page-${start}.pdf` : `${stem}-pages-${start}-${end}.pdf`;
}

/** The stem of an uploaded name for the names of the parts: no extension, no path separators. */
export function partStem(fileName: string): string {
  const stem = fileName
    .replace(/\.pdf$/i, "")
    .replace(/[/\\]/g, "_")
    .trim();
  return stem === "" ? "document" : stem;
}
