/**
 * Page limits: a job whose PDFs hold more pages than its tool's declaration takes is refused with
 * TOO_MANY_PAGES before the tool starts, and a split whose ranges repeat pages is capped.
 */
import * as mupdf from "mupdf";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningConverter, startConverter } from "../../container/src/server.ts";
import { AppError, TOOLS } from "../../contract/index.ts";
import { checkPageLimit } from "../../engines/pdf/page-limit.ts";
import { splitPdf } from "../../engines/pdf/split.ts";
import { engineFailure } from "./engine-failure.ts";
import { pdfInput, textPdf } from "./fixtures.ts";
import { jobError, pdfFile, postJob, TEST_SECRET } from "./http.ts";

/** A PDF of `pages` blank pages sharing one page object's content (fast to make and to count). */
function blankPdf(pages: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  for (let i = 0; i < pages; i++) doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, {}, ""));
  return doc.saveToBuffer("compress").asUint8Array().slice();
}

describe("tool page limits", () => {
  it("are declared for the tools that would otherwise run out of memory or time", () => {
    expect(TOOLS["split-pdf"].input.maxPages).toBe(5_000);
    expect(TOOLS["merge-pdf"].input.maxPages).toBe(5_000);
    expect(TOOLS["pdf-to-word"].input.maxPages).toBe(2_000);
    expect(TOOLS["pdf-to-excel"].input.maxPages).toBe(2_000);
    expect(TOOLS.ocr.input.maxPages).toBe(40);
  });

  it("count the pages of every file together and name the file that crosses the limit", () => {
    const inputs = [pdfInput("a.pdf", blankPdf(3)), pdfInput("b.pdf", blankPdf(3))];
    expect(() => checkPageLimit(inputs, 6)).not.toThrow();
    let error: unknown;
    try {
      checkPageLimit(inputs, 5);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toMatchObject({
      code: "TOO_MANY_PAGES",
      context: { file_index: 1, pages: 6, max_pages: 5 },
    });
  });

  describe("through the converter", () => {
    let converter: RunningConverter;
    afterAll(() => converter?.close());

    it("refuses PDF to Word of 2,001 pages with TOO_MANY_PAGES, without running it", async () => {
      converter = await startConverter({ port: 0, log: () => {}, secret: TEST_SECRET });
      const response = await postJob(converter.url, "pdf-to-word", {}, [pdfFile("big.pdf", blankPdf(2_001))]);
      const { error } = await jobError(response);
      expect(error).toMatchObject({ code: "TOO_MANY_PAGES", context: { pages: 2_001, max_pages: 2_000 } });
    });

    it("refuses OCR of 41 pages with TOO_MANY_PAGES, without running it", async () => {
      converter ??= await startConverter({ port: 0, log: () => {}, secret: TEST_SECRET });
      const response = await postJob(converter.url, "ocr", { languages: "en" }, [
        pdfFile("scan.pdf", blankPdf(41)),
      ]);
      const { error } = await jobError(response);
      expect(error).toMatchObject({ code: "TOO_MANY_PAGES", context: { pages: 41, max_pages: 40 } });
    });
  });
});

describe("split output cap", () => {
  it("refuses ranges that repeat pages past the cap with OUTPUT_TOO_LARGE, before writing any part", async () => {
    const ranges = Array.from({ length: 290 }, () => "1-14").join(",");
    const error = await engineFailure(
      splitPdf(
        [pdfInput("r.pdf", textPdf("R", 14))],
        { split_mode: "ranges", page_ranges: ranges, pages_per_part: 2 },
        () => {},
      ),
    );
    expect(error.code).toBe("OUTPUT_TOO_LARGE");
    expect(error.context).toMatchObject({ pages: 290 * 14, max_pages: 100 });
    const ones = Array.from({ length: 2000 }, () => "1").join(",");
    const parts = splitPdf(
      [pdfInput("r.pdf", textPdf("R", 14))],
      { split_mode: "ranges", page_ranges: ones, pages_per_part: 2 },
      () => {},
    );
    expect((await engineFailure(parts)).code).toBe("OUTPUT_TOO_LARGE");
  });

  it("still splits every page of a long file, and overlapping ranges", async () => {
    const overlapping = await splitPdf(
      [pdfInput("o.pdf", textPdf("O", 4))],
      { split_mode: "ranges", page_ranges: "1-3,2-4", pages_per_part: 2 },
      () => {},
    );
    expect(overlapping.facts).toMatchObject({ parts: 2, pages: 6 });
    const output = await splitPdf(
      [pdfInput("b.pdf", blankPdf(600))],
      { split_mode: "every-page", pages_per_part: 2 },
      () => {},
    );
    expect(output.facts).toMatchObject({ parts: 600, pages: 600 });
  });
});
