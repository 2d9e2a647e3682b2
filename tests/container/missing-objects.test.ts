/**
 * Valid PDFs that lack an optional object (here the catalog's /Names tree, which links with string
 * destinations may refer to) are not damaged: merge and every split mode accept them. An engine's
 * TypeError is our defect, answered INTERNAL, never "your file is damaged".
 */
import { unzipSync } from "fflate";
import type * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { pdfToJpg } from "../../engines/pdf/pdf-to-jpg.ts";
import { pdfToWord } from "../../engines/pdf/pdf-to-word.ts";
import { splitPdf } from "../../engines/pdf/split.ts";
import type { SplitOptions } from "../../engines/pdf/split-parts.ts";
import { asPdfJobError } from "../../engines/pdf/write-pdf.ts";
import { pdfToExcel } from "../../engines/pdf/xlsx/pdf-to-xlsx.ts";
import type { EngineHandler } from "../../engines/types.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { engineFailure } from "./engine-failure.ts";
import { namedDestinationPdf, openPdf, pageTexts, pdfInput } from "./fixtures.ts";

/** The 0-based page each link of page `index` goes to (-1 when it goes nowhere). */
function linkTargets(doc: mupdf.PDFDocument, index: number): number[] {
  return doc
    .loadPage(index)
    .getLinks()
    .map((link) => doc.resolveLink(link));
}

describe("a PDF whose links name destinations while its catalog has no /Names", () => {
  const bare = namedDestinationPdf("N", false);
  const named = namedDestinationPdf("D", true);

  it("is merged, every page kept; with the name tree the links still reach their page", async () => {
    const output = await mergePdfs([pdfInput("bare.pdf", bare), pdfInput("named.pdf", named)], {}, () => {});
    const doc = openPdf(output.bytes);
    expect(pageTexts(doc)).toHaveLength(6);
    expect(output.facts).toMatchObject({ pages: 6, files: 2 });
    // Page 1 of named.pdf is page 4 of the merge; its links reach chapter 3, page 6.
    expect(linkTargets(doc, 3)).toEqual([5, 5]);
  });

  it.each<Partial<SplitOptions>>([
    { split_mode: "ranges", page_ranges: "1-2,3" },
    { split_mode: "every-page" },
    { split_mode: "every-n", pages_per_part: 2 },
  ])("is split (%o)", async (options) => {
    const output = await splitPdf(
      [pdfInput("bare.pdf", bare)],
      { split_mode: "ranges", pages_per_part: 2, ...options } as SplitOptions,
      () => {},
    );
    const parts = output.kind === "zip" ? Object.values(unzipSync(output.bytes)) : [output.bytes];
    const pages = parts.map((part) => openPdf(part).countPages());
    expect(pages.reduce((a, b) => a + b, 0)).toBe(3);
  });

  it("keeps a named link whose target lands in the same part", async () => {
    const output = await splitPdf(
      [pdfInput("named.pdf", named)],
      { split_mode: "ranges", page_ranges: "1-3", pages_per_part: 2 },
      () => {},
    );
    expect(linkTargets(openPdf(output.bytes), 0)).toEqual([2, 2]);
  });
});

/** A page tree whose second kid is a /Pages node listing the root again: MuPDF opens it, then finds the cycle. */
function pageTreeLoopPdf(): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
  ]);
}

describe("a page tree that loops", () => {
  it.each([
    ["merge", mergePdfs],
    ["pdf-to-word", pdfToWord],
    ["pdf-to-excel", pdfToExcel],
  ] as const)("is PDF_DAMAGED in %s, as in every PDF tool", async (_, handler) => {
    const run = (handler as EngineHandler<object>)([pdfInput("loop.pdf", pageTreeLoopPdf())], {}, () => {});
    expect((await engineFailure(run)).code).toBe("PDF_DAMAGED");
  });

  it("is PDF_DAMAGED in pdf-to-jpg (it was INTERNAL: Pages-tree-refs.pdf of the wide corpus)", async () => {
    const run = pdfToJpg(
      [pdfInput("loop.pdf", pageTreeLoopPdf())],
      { conversion_mode: "convert-pages", dpi: 72 },
      () => {},
    );
    expect((await engineFailure(run)).code).toBe("PDF_DAMAGED");
  });
});

describe("asPdfJobError", () => {
  it("answers an engine's TypeError as INTERNAL, its text in detail, and MuPDF's own errors as damage", () => {
    const defect = asPdfJobError(new TypeError("Cannot read properties of null (reading 'x')"), "merge", {});
    expect(defect).toBeInstanceOf(AppError);
    expect(defect.code).toBe("INTERNAL");
    expect(defect.detail).toContain("TypeError");
    expect(JSON.stringify(defect.toBody())).not.toContain("null");
    expect(asPdfJobError(new Error("object out of range (12 0 R)"), "merge", {}).code).toBe("PDF_DAMAGED");
    expect(asPdfJobError(new RangeError("Array buffer allocation failed"), "split", {}).code).toBe(
      "JOB_OUT_OF_MEMORY",
    );
  });

  it("answers a WebAssembly trap in MuPDF as INTERNAL, never as a damaged file", () => {
    const trap = asPdfJobError(new WebAssembly.RuntimeError("table index is out of bounds"), "ocr", {});
    expect(trap.code).toBe("INTERNAL");
    expect(trap.detail).toContain("RuntimeError: table index is out of bounds");
  });
});
