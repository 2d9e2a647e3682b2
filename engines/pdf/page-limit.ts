import { AppError } from "../../contract/index.ts";
import type { EngineInput } from "../types.ts";
import { openPdf } from "./open-pdf.ts";

/**
 * Refuses a job whose PDFs hold more pages, together, than its tool takes (the declaration's
 * `input.maxPages`), before the tool starts: counting pages costs an open, while a job too big for
 * its runner would hold it until it ran out of memory or time. Opening applies every PDF tool's
 * rules (damaged, encrypted, no pages), naming the file by its index.
 */
export function checkPageLimit(inputs: readonly EngineInput[], maxPages: number | undefined): void {
  if (maxPages === undefined) return;
  let pages = 0;
  for (const [index, input] of inputs.entries()) {
    if (input.kind !== "pdf") continue;
    const pdf = openPdf(input.bytes, index);
    try {
      pages += pdf.countPages();
    } finally {
      pdf.destroy();
    }
    if (pages > maxPages) throw tooManyPages(index, pages, maxPages);
  }
}

/** The error of a job whose files hold `pages` pages, more than `maxPages`, from file `fileIndex` on. */
export function tooManyPages(fileIndex: number, pages: number, maxPages: number): AppError {
  return new AppError("TOO_MANY_PAGES", `The files hold more than the ${maxPages} pages this tool takes.`, {
    file_index: fileIndex,
    pages,
    max_pages: maxPages,
  });
}
