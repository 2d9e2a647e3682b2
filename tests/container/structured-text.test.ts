import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { withoutOperatorsInArrays } from "../../engines/pdf/hidden-text.ts";
import { readPageText, textLines } from "../../engines/pdf/structured-text.ts";
import { astralTextPdf, drawnPdf, hiddenTextPdfs, textAt } from "./rich-pdf.ts";

async function firstPage(content: string, image?: { width: number; height: number }) {
  const bytes = await drawnPdf([{ content, ...(image ? { image } : {}) }]);
  const doc = new mupdf.PDFDocument(bytes);
  return { doc, page: readPageText(doc.loadPage(0), 0) };
}

describe("structured text", () => {
  it("reads spans with font, size, weight, slant and colour in top-left coordinates", async () => {
    const { page } = await firstPage(
      `${textAt(72, 770, "Title", 2, 20)}1 0 0 rg ${textAt(72, 740, "Red words", 3, 11)}0 g ${textAt(72, 720, "Slanted", 4, 9)}`,
    );
    expect(page.width).toBe(595);
    expect(page.height).toBe(842);
    const lines = textLines(page);
    expect(lines.map((line) => line.text.trim())).toEqual(["Title", "Red words", "Slanted"]);
    const [title, red, slanted] = lines.map((line) => line.spans[0]);
    expect(title).toMatchObject({
      font: "Helvetica-Bold",
      size: 20,
      bold: true,
      italic: false,
      color: "000000",
    });
    expect(red).toMatchObject({ font: "Times-Roman", size: 11, bold: false, color: "FF0000" });
    expect(slanted).toMatchObject({ size: 9, italic: true });
    // y grows downwards: the title (baseline 842 - 770 = 72) is above the others.
    expect(lines[0]?.baseline).toBeCloseTo(72, 0);
    expect(title?.chars).toHaveLength(5);
  });

  it("reads characters outside the BMP whole (emoji, CJK Extension B)", () => {
    // MuPDF.js's walk gives U+1F389 as U+F389 and U+20041 as "A".
    const doc = new mupdf.PDFDocument(astralTextPdf());
    const [line] = textLines(readPageText(doc.loadPage(0), 0));
    expect(line?.text.trim()).toBe("Party: \u{1F389}\u{20041}");
  });

  it("finds stroked and filled rules, fills and underlines", async () => {
    const { page } = await firstPage(
      [
        textAt(72, 700, "plain underlined plain"),
        // An underline under "underlined" (x 98.3–149.7 at 11 pt Helvetica) as a thin filled bar.
        "0 g 98.5 697.5 51 0.8 re f\n",
        // A 2 × 2 ruled grid drawn with strokes, and a shaded box.
        "0.5 w 100 500 m 300 500 l 100 540 m 300 540 l 100 580 m 300 580 l 100 500 m 100 580 l 200 500 m 200 580 l 300 500 m 300 580 l S\n",
        "0.9 g 350 500 100 50 re f\n",
      ].join(""),
    );
    const spans = textLines(page)[0]?.spans ?? [];
    expect(spans.filter((span) => span.underline).map((span) => span.text.trim())).toEqual(["underlined"]);
    const horizontal = page.rules.filter((rule) => rule.orientation === "horizontal" && rule.width < 0.7);
    const vertical = page.rules.filter((rule) => rule.orientation === "vertical");
    expect(horizontal.map((rule) => Math.round(rule.at)).sort()).toEqual([262, 302, 342]);
    expect(vertical.map((rule) => Math.round(rule.at)).sort()).toEqual([100, 200, 300]);
    expect(page.fills).toHaveLength(1);
    expect(page.fills[0]?.color).toMatch(/^E[56]E[56]E[56]$/);
  });

  it("gives image blocks at their place", async () => {
    const { page } = await firstPage("q 200 0 0 100 72 600 cm /Im1 Do Q", { width: 40, height: 20 });
    const images = page.blocks.filter((block) => block.type === "image");
    expect(images).toHaveLength(1);
    const box = images[0]?.box ?? [0, 0, 0, 0];
    expect(box.map(Math.round)).toEqual([72, 142, 272, 242]);
  });

  it("drops a space drawn and then covered by the next letter, and keeps spaces that show", async () => {
    // Helvetica's space is 278/1000 em wide: moving back by that much closes the gap it left.
    const content = [
      "BT /F1 11 Tf 72 700 Td [(securitesoc ) 278 (iale and more)] TJ ET\n",
      "BT /F1 11 Tf 72 680 Td [(tight ) 150 (words)] TJ ET\n",
    ].join("");
    const { page } = await firstPage(content);
    expect(textLines(page).map((line) => line.text.trim())).toEqual([
      "securitesociale and more",
      "tight words",
    ]);
  });
});

describe("text MuPDF's text device misses on a page without other text", () => {
  it("reads a TJ array with an operator inside it, and clip-mode text in a font that cannot draw", async () => {
    for (const { text, bytes } of await hiddenTextPdfs()) {
      const page = readPageText(new mupdf.PDFDocument(bytes).loadPage(0), 0);
      expect(textLines(page).map((line) => line.text.trim())).toEqual([text]);
    }
  });

  it("removes only operators inside arrays, leaving strings, dictionaries and inline images as they are", () => {
    expect(withoutOperatorsInArrays("[(a) 0 Tc -250 (b [x] Tc\\)) <41> /N true] TJ")).toBe(
      "[(a) 0   -250 (b [x] Tc\\)) <41> /N true] TJ",
    );
    expect(withoutOperatorsInArrays("BT [(a) -250 (b)] TJ ET 0 0 m % [x Tc]\n[3 2] 0 d")).toBeNull();
    const inline = "BI /W 4 /H 1 /BPC 8 /CS /G /D [1 0] ID [ab Tc] EI [(x) Tw] TJ";
    expect(withoutOperatorsInArrays(inline)).toBe(
      "BI /W 4 /H 1 /BPC 8 /CS /G /D [1 0] ID [ab Tc] EI [(x)  ] TJ",
    );
  });
});
