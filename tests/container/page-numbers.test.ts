import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { addPageNumbers } from "../../tools/page-numbers/page-numbers.ts";
import tool from "../../tools/page-numbers/tool.ts";
import { popplerPages, popplerPageTexts } from "../support/poppler.ts";
import { engineFailure } from "./engine-failure.ts";
import { flatOutline, openPdf, pageText, pdfInput, textPdf } from "./fixtures.ts";

async function number(bytes: Uint8Array, fields: Record<string, string> = {}) {
  const options = tool.options.parse(fields);
  return addPageNumbers([pdfInput("report.pdf", bytes)], options, () => {});
}

/** The box of the line of page `index` that reads exactly `text`, on the displayed page (MuPDF). */
function hit(bytes: Uint8Array, index: number, text: string): mupdf.Rect | undefined {
  const json = openPdf(bytes).loadPage(index).toStructuredText("preserve-whitespace").asJSON();
  const blocks = JSON.parse(json) as {
    blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[];
  };
  for (const block of blocks.blocks) {
    for (const line of block.lines ?? []) {
      if (line.text.trim() === text)
        return [line.bbox.x, line.bbox.y, line.bbox.x + line.bbox.w, line.bbox.y + line.bbox.h];
    }
  }
  return undefined;
}

describe("Add page numbers", () => {
  it("numbers every page at the bottom centre as text pdftotext reads, and changes nothing else", async () => {
    const source = textPdf("Report", 3, { links: true, outline: [["Start", 0]] });
    const output = await number(source);
    expect(popplerPageTexts(output.bytes)).toEqual(
      [0, 1, 2].map((i) => `${pageText("Report", i)}\n\n${i + 1}`),
    );
    expect(output.facts).toMatchObject({ pages: 3, numbered_pages: 3 });
    const box = hit(output.bytes, 1, "2");
    expect(box).toBeDefined();
    // Centred, 28 pt above the bottom edge (842 pt page), in an 11 pt font.
    expect(Math.abs(((box?.[0] ?? 0) + (box?.[2] ?? 0)) / 2 - 595 / 2)).toBeLessThan(2);
    expect(box?.[3] ?? 0).toBeGreaterThan(842 - 28 - 11);
    expect(box?.[3] ?? 0).toBeLessThan(842 - 28);
    const doc = openPdf(output.bytes);
    expect(
      doc
        .loadPage(0)
        .getLinks()
        .map((link) => link.getURI()),
    ).toEqual(["#page=2", "https://example.com/Report"]);
    expect(flatOutline(doc)).toEqual([{ title: "Start", page: 0, depth: 0 }]);
  });

  it("writes 'Page n of N' from a first number on a range of pages, top right", async () => {
    const output = await number(textPdf("Doc", 4), {
      pages: "2-4",
      start: "5",
      format: "page-of-total",
      position: "top-right",
    });
    const texts = popplerPageTexts(output.bytes);
    expect(texts[0]).toBe(pageText("Doc", 0));
    expect(texts.slice(1).map((text) => text.split("\n")[0])).toEqual([
      "Page 5 of 7",
      "Page 6 of 7",
      "Page 7 of 7",
    ]);
    const box = hit(output.bytes, 3, "Page 7 of 7");
    expect(box?.[2] ?? 0).toBeGreaterThan(595 - 28 - 2);
    expect(box?.[1] ?? 999).toBeLessThan(28 + 11);
  });

  it.each([
    ["devanagari", "hi", "पृष्ठ ३ / ३"],
    ["tamil", "ta", "பக்கம் ௩ / ௩"],
    ["telugu", "te", "పేజీ ౩ / ౩"],
  ])(
    "writes %s digits and words that pdftotext reads back as the same Unicode",
    async (digits, language, third) => {
      const output = await number(textPdf("Doc", 3), { format: "page-of-total", digits, language });
      const texts = popplerPageTexts(output.bytes);
      expect(texts[2]?.split("\n").at(-1)?.normalize("NFC")).toBe(third.normalize("NFC"));
    },
  );

  it("puts the number where the reader sees the bottom of a turned page", async () => {
    const doc = new mupdf.PDFDocument(textPdf("Turned", 1));
    doc.findPage(0).put("Rotate", 90);
    const output = await number(doc.saveToBuffer("").asUint8Array().slice(), { position: "bottom-right" });
    expect(popplerPages(output.bytes)[0]?.rotation).toBe(90);
    // Displayed, the page is 842 wide and 595 high.
    const box = hit(output.bytes, 0, "1");
    expect(box?.[2] ?? 0).toBeGreaterThan(842 - 28 - 2);
    expect(box?.[3] ?? 0).toBeGreaterThan(595 - 28 - 11);
  });

  it("shrinks the label to fit a page smaller than the label and its margins", async () => {
    // A 12 × 12 pt page: "Page 1 of 1" at 11 pt, 28 pt from the edge, would lie off the page.
    const doc = new mupdf.PDFDocument();
    doc.insertPage(-1, doc.addPage([0, 0, 12, 12], 0, doc.addObject({}), ""));
    const output = await number(new Uint8Array(doc.saveToBuffer("").asUint8Array()), {
      format: "page-of-total",
    });
    expect(popplerPageTexts(output.bytes)[0]?.trim()).toBe("Page 1 of 1");
    const box = hit(output.bytes, 0, "Page 1 of 1");
    expect(box).toBeDefined();
    const [x0, y0, x1, y1] = box ?? [0, 0, 0, 0];
    expect(x0).toBeGreaterThanOrEqual(0);
    expect(y0).toBeGreaterThanOrEqual(0);
    expect(x1).toBeLessThanOrEqual(12);
    expect(y1).toBeLessThanOrEqual(12);
  });

  it("refuses a range outside the document", async () => {
    const error = await engineFailure(number(textPdf("Short", 2), { pages: "3" }));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.context).toMatchObject({ page_ranges_error: "invalidPage" });
  });
});
