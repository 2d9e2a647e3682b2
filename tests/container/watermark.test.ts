import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import tool from "../../tools/watermark/tool.ts";
import { addWatermark } from "../../tools/watermark/watermark.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { engineFailure } from "./engine-failure.ts";
import { flatOutline, openPdf, pageText, pdfInput, textPdf } from "./fixtures.ts";

async function watermark(bytes: Uint8Array, fields: Record<string, string>) {
  return addWatermark([pdfInput("report.pdf", bytes)], tool.options.parse(fields), () => {});
}

/** The page drawn by MuPDF at 1 pixel per point, as grey levels. */
function grey(bytes: Uint8Array, index: number): number[] {
  const pixmap = openPdf(bytes)
    .loadPage(index)
    .toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
  return [...pixmap.getPixels()];
}

const darkPixels = (pixels: readonly number[]) => pixels.filter((value) => value < 250).length;

describe("Add watermark", () => {
  it.each([
    ["Latin", "DRAFT"],
    ["Hindi", "गोपनीय दस्तावेज़"],
    ["Tamil", "ரகசியம் கொள்கை"],
    ["Telugu", "రహస్యం"],
  ])("stamps %s text diagonally that pdftotext reads back with the same Unicode", async (_, text) => {
    const output = await watermark(textPdf("Report", 2), { text });
    const texts = popplerPageTexts(output.bytes);
    for (const [index, page] of texts.entries()) {
      expect(page).toContain(pageText("Report", index));
      expect(page.normalize("NFC").replace(/\s+/g, " ")).toContain(text.normalize("NFC"));
    }
    expect(output.facts).toMatchObject({ pages: 2, watermarked_pages: 2 });
  });

  it("changes only the chosen pages and keeps links and bookmarks", async () => {
    const source = textPdf("Report", 3, { links: true, outline: [["Two", 1]] });
    const output = await watermark(source, { text: "COPY", pages: "2", position: "tiled", opacity: "0.5" });
    const texts = popplerPageTexts(output.bytes);
    expect(texts[0]).toBe(pageText("Report", 0));
    expect(texts[2]).toBe(pageText("Report", 2));
    // Tiled: the word several times over the page (once when centred).
    expect(texts[1]?.match(/COPY/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(grey(output.bytes, 0)).toEqual(grey(source, 0));
    const doc = openPdf(output.bytes);
    expect(
      doc
        .loadPage(1)
        .getLinks()
        .map((link) => link.getURI()),
    ).toEqual(["#page=3", "https://example.com/Report"]);
    expect(flatOutline(doc)).toEqual([{ title: "Two", page: 1, depth: 0 }]);
  });

  it("draws lighter with a lower opacity, and under the content when asked", async () => {
    const source = textPdf("Report", 1);
    const strong = await watermark(source, { text: "DRAFT", opacity: "1", rotation: "0" });
    const faint = await watermark(source, { text: "DRAFT", opacity: "0.2", rotation: "0" });
    const sum = (pixels: readonly number[]) => pixels.reduce((total, value) => total + (255 - value), 0);
    expect(sum(grey(faint.bytes, 0))).toBeLessThan(sum(grey(strong.bytes, 0)) * 0.6);
    expect(darkPixels(grey(strong.bytes, 0))).toBeGreaterThan(darkPixels(grey(source, 0)));
    const under = await watermark(source, { text: "DRAFT", layer: "under" });
    const content = openPdf(under.bytes).findPage(0).get("Contents");
    expect(content.get(0).readStream().asString()).toMatch(/Do Q/);
  });

  it("refuses a request without text", async () => {
    const error = await engineFailure(watermark(textPdf("Report", 1), {}));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.context).toEqual({ watermark_error: "textRequired" });
  });
});
