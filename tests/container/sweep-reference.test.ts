/**
 * The sweep's reading of a PDF by other programs (bench/sweep.ts): the pages pdfinfo reads, the
 * characters a stamped page must keep, and a report that keeps the last result of each tool on
 * each file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lastResults, missingCharacters, pdfReference, type SweepResult } from "../../bench/sweep.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";

const folder = mkdtempSync(join(tmpdir(), "sweep-reference-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function written(name: string, bytes: Uint8Array): string {
  const file = join(folder, name);
  writeFileSync(file, bytes);
  return file;
}

/** Three pages: the second's crop box outside its media box, the third's media box empty. */
function oddBoxesPdf(): Uint8Array {
  const page = (boxes: string) => `<< /Type /Page /Parent 2 0 R ${boxes} >>`;
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
    page("/MediaBox [0 0 595 842]"),
    page("/MediaBox [0 0 600 800] /CropBox [600 800 1000 1000]"),
    page("/MediaBox [0 0 0 0]"),
  ]);
}

/** One page, and a /Pages node that is its own grandchild: the root's Count says 3. */
function cyclicTreePdf(): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 1 >>",
    "<< /Type /Pages /Parent 4 0 R /Kids [4 0 R] /Count 1 >>",
  ]);
}

describe("the pages pdfinfo reads", () => {
  // boundingBox_invalid.pdf of the wide corpus: pdfinfo gives its third page (crop box outside the
  // media box) the size 0 × 0, and the sweep took a tool's three pages for one too many.
  it("counts a page whose crop box lies outside its media box, and one with an empty media box", async () => {
    expect((await pdfReference(written("boxes.pdf", oddBoxesPdf()))).pages).toBe(3);
  });

  it("leaves out the pages of a tree's loop, which pdfinfo cannot read", async () => {
    expect((await pdfReference(written("cycle.pdf", cyclicTreePdf()))).pages).toBe(1);
  });
});

describe("a sweep report", () => {
  it("keeps the last result of each tool on each file", () => {
    const result = (tool: string, file: string, verdict: SweepResult["verdict"]): SweepResult => ({
      tool,
      file,
      verdict,
      outcome: verdict === "valid" ? "ok" : "bad output",
      detail: "",
      ms: 1,
    });
    const kept = lastResults([
      result("watermark", "a.pdf", "defect"),
      result("page-numbers", "a.pdf", "defect"),
      result("watermark", "b.pdf", "valid"),
      result("watermark", "a.pdf", "valid"),
    ]);
    expect(kept.map((r) => `${r.tool} ${r.file} ${r.verdict}`).sort()).toEqual([
      "page-numbers a.pdf defect",
      "watermark a.pdf valid",
      "watermark b.pdf valid",
    ]);
  });
});

describe("the characters a stamped page must keep", () => {
  it("allows lines split differently and the stamp added, not a character lost", () => {
    expect(missingCharacters("er es Lorem", "e गोपनीय e r s Lorem 9301")).toBe("");
    expect(missingCharacters("Lorem ipsum", "Lorem ipsu 9301")).toBe("m");
    // As many times: a repeated word read once has lost its second copy.
    expect(missingCharacters("aa aa", "aa")).toBe("aa");
  });
});
