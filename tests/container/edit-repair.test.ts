/**
 * The tools that edit a PDF in place (organize, page numbers, watermark) on a file whose one
 * cross-reference entry points at the wrong place: MuPDF opens it without noticing, and rebuilds
 * the table when that object is first loaded. Found in the wide corpus (annotation-polyline-polygon.pdf):
 * the rebuild happened during the save and dropped the edit, so the tool answered its input. And
 * a page whose content restores a graphics state it never saved (bug1157493.pdf).
 */
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { scanContent } from "../../engines/pdf/stamp-place.ts";
import { organizePdf } from "../../tools/organize-pdf/organize.ts";
import { addPageNumbers } from "../../tools/page-numbers/page-numbers.ts";
import numbersTool from "../../tools/page-numbers/tool.ts";
import watermarkTool from "../../tools/watermark/tool.ts";
import { addWatermark } from "../../tools/watermark/watermark.ts";
import { popplerPages, popplerPageTexts } from "../support/poppler.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { openPdf, pdfInput } from "./fixtures.ts";

/** One page of text whose font (object 5) is listed 3 bytes past where it starts. */
function misplacedObjectPdf(): Uint8Array {
  const content = "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET";
  const text = new TextDecoder("latin1").decode(
    pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]),
  );
  const lines = text.split("\n");
  const entry = lines.indexOf("xref") + 2 + 5;
  const line = lines[entry] ?? "";
  lines[entry] = `${String(Number(line.slice(0, 10)) + 3).padStart(10, "0")}${line.slice(10)}`;
  return Uint8Array.from(lines.join("\n"), (c) => c.charCodeAt(0));
}

const input = () => [pdfInput("misplaced.pdf", misplacedObjectPdf())];
const noProgress = () => {};

describe("an in-place edit of a PDF that MuPDF repairs on the way", () => {
  it("keeps the watermark and the page numbers", async () => {
    const marked = await addWatermark(input(), watermarkTool.options.parse({ text: "गोपनीय" }), noProgress);
    expect(popplerPageTexts(marked.bytes)[0]).toContain("गोपनीय");
    expect(popplerPageTexts(marked.bytes)[0]).toContain("Kept text");
    const numbered = await addPageNumbers(input(), numbersTool.options.parse({ start: "9301" }), noProgress);
    expect(popplerPageTexts(numbered.bytes)[0]).toContain("9301");
    expect(numbered.facts).toMatchObject({ repaired_files: 1 });
  });

  it("keeps organize's turn", async () => {
    const turned = await organizePdf(input(), { order: "1@90" }, noProgress);
    expect(popplerPages(turned.bytes).map((page) => page.rotation)).toEqual([90]);
    expect(popplerPageTexts(turned.bytes)[0]).toContain("Kept text");
  });
});

/**
 * One page drawing a form XObject whose dictionary refers to another object (/PTEX.InfoDict in
 * pdfTeX's included pages, endchar.pdf; /CIDSystemInfo in an embedded CMap, issue13242.pdf).
 */
function referringFormPdf(): Uint8Array {
  const text = "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET";
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /XObject << /X 6 0 R >> >> >>",
    "<< /Length 5 >>\nstream\n/X Do\nendstream",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Type /XObject /Subtype /Form /BBox [0 0 595 842] /Info 7 0 R /Resources << /Font << /F1 5 0 R >> >> /Length ${text.length} >>\nstream\n${text}\nendstream`,
    "<< /Author (Someone) >>",
  ]);
}

// Loading every object with MuPDF.js's resolve() before the compacting save wrote such a form as a
// dictionary without its stream: the page's text was gone (14 files of the wide corpus).
describe("an in-place edit of a page whose form XObject refers to another object", () => {
  it("keeps the form's text under page numbers, the watermark and organize's turn", async () => {
    await keepsTextUnderEveryTool(referringFormPdf);
  });
});

/** One page of text whose font's name holds a space: "/BaseFont /Helvetica Bold" (a bare word). */
const spacedFontNamePdf = () =>
  pageOf(
    "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica Bold /Encoding /WinAnsiEncoding >>",
  );

/** Page numbers, the watermark and organize's turn on `bytes` keep the page's "Kept text". */
async function keepsTextUnderEveryTool(bytes: () => Uint8Array): Promise<void> {
  const page = () => [pdfInput("page.pdf", bytes())];
  expect(popplerPageTexts(bytes())[0]).toBe("Kept text");
  const numbered = await addPageNumbers(page(), numbersTool.options.parse({ start: "9301" }), noProgress);
  expect(popplerPageTexts(numbered.bytes)[0]).toContain("Kept text");
  expect(popplerPageTexts(numbered.bytes)[0]).toContain("9301");
  const marked = await addWatermark(page(), watermarkTool.options.parse({ text: "DRAFT" }), noProgress);
  expect(popplerPageTexts(marked.bytes)[0]).toContain("Kept text");
  const turned = await organizePdf(page(), { order: "1@90" }, noProgress);
  expect(popplerPageTexts(turned.bytes)[0]).toContain("Kept text");
}

// issue11549_reduced.pdf of the wide corpus ("/BaseFont /AASGAA+Arial,Unicode MS"): MuPDF cannot
// parse the font's dictionary and wrote the page without its font; Poppler and qpdf read it.
describe("an in-place edit of a PDF holding an object MuPDF cannot parse", () => {
  const page = () => [pdfInput("spaced.pdf", spacedFontNamePdf())];

  it("works on qpdf's copy, the page's text kept", async () => {
    await keepsTextUnderEveryTool(spacedFontNamePdf);
    const numbered = await addPageNumbers(page(), numbersTool.options.parse({ start: "9301" }), noProgress);
    expect(numbered.facts).toMatchObject({ repaired_files: 1 });
  });

  it("leaves a sound file as MuPDF reads it (no repair reported)", async () => {
    const numbered = await addPageNumbers(
      [pdfInput("sound.pdf", pageOf("BT /F1 24 Tf 72 700 Td (Kept text) Tj ET"))],
      numbersTool.options.parse({ start: "9301" }),
      noProgress,
    );
    expect(numbered.facts).not.toHaveProperty("repaired_files");
  });
});

/** A one-page PDF of `content` in Helvetica (or the font dictionary given). */
function pageOf(
  content: string,
  font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    font,
  ]);
}

/** A page whose content starts with an unmatched Q, then moves everything after it off the page. */
function unbalancedPdf(): Uint8Array {
  return pageOf("Q 1 0 0 1 2000 2000 cm BT /F1 24 Tf 72 700 Td (Gone) Tj ET q");
}

describe("stamps on a page whose content restores a state it never saved", () => {
  it("counts the unmatched restores and the saves left open, not the letters in strings", () => {
    expect(scanContent("Q 1 0 0 1 5 5 cm q (Q (Q)) Tj % Q\n<51> Tj q")).toEqual({
      unmatched: 1,
      left: 2,
      closing: "",
      shortOperator: undefined,
    });
    expect(scanContent("q 1 g Q")).toEqual({ unmatched: 0, left: 0, closing: "", shortOperator: undefined });
    expect(scanContent("q BI /W 1 /H 1 ID Q(q EI Q")).toEqual({
      unmatched: 0,
      left: 0,
      closing: "",
      shortOperator: undefined,
    });
  });

  it("draws page numbers and the watermark on the page, not under its transform", async () => {
    const page = () => [pdfInput("unbalanced.pdf", unbalancedPdf())];
    const numbered = await addPageNumbers(page(), numbersTool.options.parse({ start: "9301" }), noProgress);
    expect(popplerPageTexts(numbered.bytes)[0]).toContain("9301");
    const marked = await addWatermark(page(), watermarkTool.options.parse({ text: "DRAFT" }), noProgress);
    expect(popplerPageTexts(marked.bytes)[0]).toContain("DRAFT");
  });
});

describe("stamps on a page whose content leaves a string, array or dictionary open", () => {
  it("finds what is left open, inside strings and arrays too", () => {
    expect(scanContent("(\u0000A\u0000B) Tj q")).toEqual({
      unmatched: 0,
      left: 1,
      closing: "",
      shortOperator: undefined,
    });
    expect(scanContent("BT (a) Tj ET [ <<").closing).toBe(">> ]");
    expect(scanContent("[ (x (y) \\) z").closing).toBe(") ]");
    expect(scanContent("<< /A [ 1 2 ] /B <4142").closing).toBe("> >>");
    expect(scanContent("q [ Q").left).toBe(1);
  });

  // issue15893_reduced.pdf of the wide corpus: its content does not decrypt to PDF syntax and
  // opens an array; the numbers and the watermark drawn after it were read as the array's items.
  it.each([
    // TCPDF's two-byte strings (issue2074.pdf): the content was read as text up to the first NUL,
    // a string seemed open and the page's content to end there.
    [
      "nothing, its strings holding NUL bytes",
      "q 0 g BT 68 662 Td [(\u0000G\u0000e)] TJ ET Q\nq\nq 0 g BT 3 Tr ET BT 72 700 Td /F1 24 Tf [(Kept text)] TJ ET Q\nQ",
    ],
    ["an array", "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET [ 1 2"],
    ["a string in an array", "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET [ (open \\"],
    ["a dictionary", "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET << /A <41"],
  ])("draws page numbers and the watermark after %s left open", async (_, content) => {
    const page = () => [pdfInput("open.pdf", pageOf(content))];
    const numbered = await addPageNumbers(page(), numbersTool.options.parse({ start: "9301" }), noProgress);
    expect(popplerPageTexts(numbered.bytes)[0]).toContain("9301");
    expect(popplerPageTexts(numbered.bytes)[0]).toContain("Kept text");
    const marked = await addWatermark(page(), watermarkTool.options.parse({ text: "गोपनीय" }), noProgress);
    expect(popplerPageTexts(marked.bytes)[0]).toContain("गोपनीय");
  });
});

/** MuPDF's drawing of page 1 at 1 pixel per point, as grey levels, row by row. */
function greyRows(bytes: Uint8Array): number[][] {
  const doc = openPdf(bytes);
  const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
  const [width, pixels] = [pixmap.getWidth(), [...pixmap.getPixels()]];
  doc.destroy();
  return Array.from({ length: pixels.length / width }, (_, y) => pixels.slice(y * width, (y + 1) * width));
}

describe("stamps on a page whose content gives an operator too few operands", () => {
  it("finds the first operator short of operands, counting arrays, dictionaries and keywords as one", () => {
    expect(scanContent("BT undefined 10 Tf /F1 24 Tf 72 700 Td (a) Tj ET").shortOperator).toBe("Tf");
    expect(scanContent("0 0 m 10 l 5 5 l").shortOperator).toBe("l");
    // A number in exponent notation (sci-notation.pdf): 1, then the operator e2.
    expect(scanContent("BT /F1 1e2 Tf ET").shortOperator).toBe("Tf");
    expect(scanContent("BT /F1 1.5 Tf -.5 +2. Td ET").shortOperator).toBeUndefined();
    const sound =
      "/P << /MCID 0 /A [1 2] >> BDC BT /F1 9 Tf [(a) -5 <62>] TJ ET EMC 1 0 0 RG true 1 Tz " +
      "/Cs cs 0.5 scn 0 0 1 1 re f BI /W 1 /H 1 ID x EI 1 1 1 rg";
    expect(scanContent(sound).shortOperator).toBeUndefined();
  });

  // Poppler stops reading the page's content at the short operator: the number and watermark
  // drawn after it in the same content were never read. Ghostscript and MuPDF draw the rest.
  describe.each([
    // issue2391-1.pdf of the wide corpus (GNU Enscript through Ghostscript).
    ["an unknown word for the font's name", "BT undefined 10 Tf /F1 24 Tf 72 700 Td (Kept text) Tj ET"],
    // sci-notation.pdf: Poppler reads 1e2 as 1, then an operator e2.
    ["a font size in exponent notation", "BT /F1 24 Tf 72 700 Td (Kept text) Tj ET BT /F1 1e2 Tf (x) Tj ET"],
  ])("(%s)", (_, text) => {
    const content = `${text} 0 0 1 rg 100 300 200 100 re f`;
    const page = () => [pdfInput("short.pdf", pageOf(content))];

    it("draws page numbers Poppler reads, the rest of the page drawn as before", async () => {
      const numbered = await addPageNumbers(page(), numbersTool.options.parse({ start: "9301" }), noProgress);
      expect(popplerPageTexts(numbered.bytes)[0]).toContain("9301");
      // The number sits at the bottom: above it, MuPDF draws every pixel as it did (text and box).
      const [before, after] = [greyRows(pageOf(content)), greyRows(numbered.bytes)];
      expect(
        before
          .slice(0, 780)
          .flat()
          .filter((value) => value < 128).length,
      ).toBeGreaterThan(1000);
      expect(after.slice(0, 780)).toEqual(before.slice(0, 780));
    });

    it("draws the watermark Poppler reads, over or under the page's content", async () => {
      for (const layer of ["over", "under"]) {
        const options = watermarkTool.options.parse({
          text: "गोपनीय",
          layer,
          position: "top-right",
          rotation: "0",
        });
        const marked = await addWatermark(page(), options, noProgress);
        expect(popplerPageTexts(marked.bytes)[0]).toContain("गोपनीय");
        // The mark sits at the top right: below it, the page as MuPDF drew it before.
        expect(greyRows(marked.bytes).slice(200)).toEqual(greyRows(pageOf(content)).slice(200));
      }
    });
  });
});
