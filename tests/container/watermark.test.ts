import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import tool from "../../tools/watermark/tool.ts";
import { addWatermark } from "../../tools/watermark/watermark.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  flatOutline,
  halfTransparentPng,
  openPdf,
  pageText,
  pdfInput,
  rotatedPng,
  textPdf,
} from "./fixtures.ts";

async function watermark(bytes: Uint8Array, fields: Record<string, string>, image?: Uint8Array) {
  const extras = image === undefined ? undefined : { image: pdfInput("logo.png", image) };
  return addWatermark([pdfInput("report.pdf", bytes)], tool.options.parse(fields), () => {}, extras);
}

/** The page drawn by MuPDF at 1 pixel per point, as grey levels. */
function grey(bytes: Uint8Array, index: number): number[] {
  const pixmap = openPdf(bytes)
    .loadPage(index)
    .toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
  return [...pixmap.getPixels()];
}

/** Page `index` as MuPDF draws it (1 pixel per point): the colour at (x, y), origin top left. */
function colours(bytes: Uint8Array, index: number): (x: number, y: number) => [number, number, number] {
  const doc = openPdf(bytes);
  const page = doc.loadPage(index);
  const pixmap = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
  const width = pixmap.getWidth();
  const pixels = pixmap.getPixels().slice();
  pixmap.destroy();
  page.destroy();
  doc.destroy();
  return (x, y) => {
    const at = (Math.round(y) * width + Math.round(x)) * 3;
    return [pixels[at] ?? -1, pixels[at + 1] ?? -1, pixels[at + 2] ?? -1];
  };
}

function rgbAt(bytes: Uint8Array, index: number, x: number, y: number): [number, number, number] {
  return colours(bytes, index)(x, y);
}

const isRed = ([r, g, b]: readonly [number, number, number]) => r > 230 && g < 30 && b < 30;

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

  it("shrinks a mark wider than the page to fit, so the whole word is read back", async () => {
    const small = pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
    ]);
    const output = await watermark(small, { text: "गोपनीय" });
    expect(popplerPageTexts(output.bytes)[0]?.normalize("NFC")).toContain("गोपनीय".normalize("NFC"));
  });

  it("refuses a request without text", async () => {
    const error = await engineFailure(watermark(textPdf("Report", 1), {}));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.context).toEqual({ watermark_error: "textRequired" });
  });

  it("names the image field when the image cannot be decoded", async () => {
    const png = await halfTransparentPng(20, 10);
    const error = await engineFailure(watermark(textPdf("Report", 1), {}, png.slice(0, 60)));
    expect(error.code).toBe("IMAGE_DAMAGED");
    expect(error.context).toMatchObject({ field: "image" });
    expect(error.context).not.toHaveProperty("file_index");
  });

  it("refuses a text and an image together", async () => {
    const error = await engineFailure(
      watermark(textPdf("Report", 1), { text: "DRAFT" }, await halfTransparentPng(20, 10)),
    );
    expect(error.context).toEqual({ watermark_error: "textOrImage" });
  });
});

// A4 pages (595 × 842 pt); the image is 200 × 100 px, its left half opaque red, its right half transparent.
describe("Add watermark with an image", () => {
  it("draws the image at its size and place, its transparent half showing the page, the text unchanged", async () => {
    const source = textPdf("Report", 1);
    const png = await halfTransparentPng(200, 100);
    const output = await watermark(source, { rotation: "0", opacity: "1", image_size: "50" }, png);
    // 50 % of the width: 297.5 × 148.75 pt about the centre (297.5, 421).
    expect(isRed(rgbAt(output.bytes, 0, 200, 421))).toBe(true);
    expect(isRed(rgbAt(output.bytes, 0, 200, 480))).toBe(true);
    expect(rgbAt(output.bytes, 0, 200, 520)).toEqual(rgbAt(source, 0, 200, 520));
    expect(rgbAt(output.bytes, 0, 120, 421)).toEqual(rgbAt(source, 0, 120, 421));
    // The transparent half: the page as it was, not the hidden black.
    expect(rgbAt(output.bytes, 0, 380, 421)).toEqual(rgbAt(source, 0, 380, 421));
    expect(popplerPageTexts(output.bytes)).toEqual(popplerPageTexts(source));
    expect(output.facts).toMatchObject({ pages: 1, watermarked_pages: 1, watermark: "image" });
  });

  it("blends with the opacity and turns anticlockwise", async () => {
    const png = await halfTransparentPng(200, 100);
    const half = await watermark(
      textPdf("Report", 1),
      { rotation: "0", opacity: "0.5", image_size: "50" },
      png,
    );
    const [r, g, b] = rgbAt(half.bytes, 0, 200, 421);
    expect(r).toBeGreaterThan(245);
    expect(g).toBeGreaterThan(100);
    expect(g).toBeLessThan(155);
    expect(b).toBeCloseTo(g, -1);
    // A quarter turn anticlockwise: the image's left (red) half comes to the bottom.
    const turned = await watermark(
      textPdf("Report", 1),
      { rotation: "90", opacity: "1", image_size: "50" },
      png,
    );
    expect(isRed(rgbAt(turned.bytes, 0, 297, 480))).toBe(true);
    expect(isRed(rgbAt(turned.bytes, 0, 297, 360))).toBe(false);
    expect(isRed(rgbAt(turned.bytes, 0, 200, 421))).toBe(false);
  });

  it("goes to a corner of the chosen pages only, or tiles the page", async () => {
    const source = textPdf("Report", 2);
    const png = await halfTransparentPng(200, 100);
    const corner = await watermark(
      source,
      { rotation: "0", position: "bottom-right", pages: "2", image_size: "50" },
      png,
    );
    expect(grey(corner.bytes, 0)).toEqual(grey(source, 0));
    // Bottom right, 2 % of the shorter side from the edges: its red half spans x 286–434, y 681–830.
    const [r, g] = rgbAt(corner.bytes, 1, 360, 760);
    expect(r - g).toBeGreaterThan(40);
    expect(rgbAt(corner.bytes, 1, 200, 421)).toEqual(rgbAt(source, 1, 200, 421));
    const tiled = await watermark(
      source,
      { rotation: "0", position: "tiled", opacity: "1", image_size: "20" },
      png,
    );
    // 20 %: 119 × 59.5 pt tiles, a step of 178.5 × 119 pt: 7 bands of rows, several tiles across each.
    const tiledAt = colours(tiled.bytes, 0);
    const runs = (reds: readonly boolean[]) => reds.filter((red, i) => red && !reds[i - 1]).length;
    const redRow = (y: number) => Array.from({ length: 298 }, (_, x) => isRed(tiledAt(2 * x, y)));
    expect(runs(Array.from({ length: 842 }, (_, y) => redRow(y).some(Boolean)))).toBe(7);
    expect(runs(redRow(298))).toBeGreaterThanOrEqual(3);
    expect(popplerPageTexts(tiled.bytes)).toEqual(popplerPageTexts(source));
  });

  it("shows an image with EXIF orientation upright and draws under the content when asked", async () => {
    const png = await rotatedPng(200, 100);
    const output = await watermark(
      textPdf("Report", 1),
      { rotation: "0", opacity: "1", image_size: "20", layer: "under" },
      png,
    );
    // Orientation 6: displayed 100 × 200, so 119 × 238 pt about the centre.
    const [r, g, b] = rgbAt(output.bytes, 0, 297, 421 + 100);
    expect([r, g, b]).toEqual([0, 90, 200]);
    expect(rgbAt(output.bytes, 0, 297 + 80, 421)).toEqual([255, 255, 255]);
    const content = openPdf(output.bytes).findPage(0).get("Contents");
    expect(content.get(0).readStream().asString()).toMatch(/Do Q/);
  });
});
