/**
 * Tiling patterns without a usable step (XStep/YStep missing or 0, or far smaller than the cell):
 * MuPDF steps them by 1 unit and paints the cell tens of thousands of times over each pixel (the
 * wide corpus's operator_list_cycle.pdf took 21 CPU s to draw for OCR). Pages are drawn with the
 * cell's size as the step instead, in PDF to JPG and OCR alike, and the document keeps its pattern.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { renderPage } from "../../engines/pdf/render-page.ts";
import { MAX_TILE_OVERDRAW, tilingRepairs, withBoundedTiling } from "../../engines/pdf/tiling-patterns.ts";
import ocr from "../../tools/ocr/container.ts";
import { save } from "./fixtures.ts";

/** Side of the pattern's cell, in points; its lower left quarter is black. */
const CELL = 100;
/** Side of the square page the pattern fills. */
const PAGE = 240;

/**
 * A page filled with a tiling pattern whose cell is CELL wide, with the steps given (undefined: no
 * entry). Stepped by its cell, a quarter of the page is black; stepped by 1, all of it.
 */
function patternPdf(steps: { x?: number; y?: number }, cell = CELL): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const dictionary: Record<string, unknown> = {
    Type: "Pattern",
    PatternType: 1,
    PaintType: 1,
    TilingType: 1,
    BBox: [0, 0, cell, cell],
    Resources: {},
  };
  if (steps.x !== undefined) dictionary.XStep = steps.x;
  if (steps.y !== undefined) dictionary.YStep = steps.y;
  const pattern = doc.addStream(`0 g 0 0 ${cell / 2} ${cell / 2} re f`, dictionary);
  const resources = doc.addObject({ Pattern: { P0: pattern } });
  doc.insertPage(
    -1,
    doc.addPage([0, 0, PAGE, PAGE], 0, resources, `/Pattern cs /P0 scn 0 0 ${PAGE} ${PAGE} re f`),
  );
  return save(doc, "");
}

/** The page's pattern dictionary. */
function patternOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  return doc.findPage(0).get("Resources").get("Pattern").get("P0");
}

/** Share of the page black when the cell is stepped by its size: its lower left quarter, repeated. */
function tiledShare(): number {
  let black = 0;
  for (let at = 0; at < PAGE; at += CELL) black += Math.min(CELL / 2, PAGE - at);
  return (black / PAGE) ** 2;
}

/** Share of dark pixels in grey or RGB samples. */
function darkShare(samples: Uint8Array, channels: number): number {
  let dark = 0;
  for (let i = 0; i < samples.length; i += channels) if ((samples[i] ?? 255) < 128) dark++;
  return dark / (samples.length / channels);
}

/** CPU seconds of this process (MuPDF draws in it) spent by `work`. */
async function cpuSeconds(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1e6;
}

describe("tiling patterns without a usable step", () => {
  it("are stepped by their cell's size for a draw, and keep their own entries afterwards", () => {
    const doc = new mupdf.PDFDocument(patternPdf({ y: 0 }));
    const repairs = tilingRepairs(doc, 0, 300 / 72);
    expect(repairs.map(({ key, step }) => [key, step])).toEqual([
      ["XStep", CELL],
      ["YStep", CELL],
    ]);
    const steps: number[][] = [];
    const device = new mupdf.Device({
      beginTile: (_area, _view, xstep, ystep) => {
        steps.push([xstep, ystep]);
        return 0;
      },
    });
    const page = doc.loadPage(0);
    withBoundedTiling(doc, 0, 300 / 72, () => page.run(device, mupdf.Matrix.identity));
    device.close();
    expect(steps).toEqual([[CELL, CELL]]);
    expect(patternOf(doc).get("XStep").isNull()).toBe(true);
    expect(patternOf(doc).get("YStep").asNumber()).toBe(0);
  });

  it("are found on pages whose annotations and resources hold nulls, which are passed over", async () => {
    const doc = new mupdf.PDFDocument(patternPdf({ y: 0 }));
    const page = doc.findPage(0);
    const annotations = doc.newArray();
    annotations.push(doc.newNull());
    annotations.push(doc.addObject({ Type: "Annot", Subtype: "Square", Rect: [0, 0, 10, 10] }));
    page.put("Annots", annotations);
    const resources = page.get("Resources");
    resources.put("XObject", doc.addObject({ X0: doc.newNull() }));
    resources.put("ExtGState", doc.addObject({ GS0: { SMask: { S: "Luminosity" } }, GS1: doc.newNull() }));
    const repairs = tilingRepairs(doc, 0, 300 / 72);
    expect(repairs.map(({ key, step }) => [key, step])).toEqual([
      ["XStep", CELL],
      ["YStep", CELL],
    ]);
    const reopened = mupdf.Document.openDocument(save(doc, ""), "application/pdf");
    expect((await renderPage(reopened, 0, 72)).jpeg.length).toBeGreaterThan(0);
  });

  it("leave patterns with sound steps alone, overlapping cells included", () => {
    for (const steps of [
      { x: CELL, y: CELL },
      { x: CELL * 0.8, y: -CELL },
      { x: CELL * 3, y: CELL * 3 },
    ]) {
      expect(tilingRepairs(new mupdf.PDFDocument(patternPdf(steps)), 0, 300 / 72)).toEqual([]);
    }
  });

  it("bound a step far smaller than its cell, or than a pixel, to the cell and a pixel", () => {
    const tiny = tilingRepairs(new mupdf.PDFDocument(patternPdf({ x: 0.5, y: 0.5 })), 0, 300 / 72);
    expect(tiny.map(({ step }) => step)).toEqual([CELL, CELL]);
    // Cells of 0.01 pt stepped by 0.02 pt: 0.083 pixels at 300 dpi, 144 cells over each pixel.
    const specks = tilingRepairs(new mupdf.PDFDocument(patternPdf({ x: 0.02, y: 0.02 }, 0.01)), 0, 300 / 72);
    expect(144).toBeGreaterThan(MAX_TILE_OVERDRAW);
    expect(specks.map(({ step }) => step)).toEqual([72 / 300, 72 / 300]);
  });

  it("are drawn in PDF to JPG at a bounded cost, with the cell tiled once per step", async () => {
    const doc = mupdf.Document.openDocument(patternPdf({}), "application/pdf");
    let page: Awaited<ReturnType<typeof renderPage>> | undefined;
    // Stepped by 1 unit, this page took 9 CPU s at 300 dpi.
    const seconds = await cpuSeconds(async () => {
      page = await renderPage(doc, 0, 300);
    });
    expect(seconds).toBeLessThan(2);
    const { data, info } = await sharp(page?.jpeg).raw().toBuffer({ resolveWithObject: true });
    expect(darkShare(new Uint8Array(data), info.channels)).toBeCloseTo(tiledShare(), 2);
  });

  it("are recognised by OCR at a bounded cost, and the output keeps the pattern as it was", async () => {
    const input = patternPdf({ x: 0 });
    let output: Uint8Array = new Uint8Array();
    const seconds = await cpuSeconds(async () => {
      const options = { languages: "en", redo_text: false };
      output = (await ocr([{ name: "pattern.pdf", kind: "pdf", bytes: input }], options, () => {})).bytes;
    });
    expect(seconds).toBeLessThan(3);
    const kept = patternOf(new mupdf.PDFDocument(output));
    expect(kept.get("XStep").asNumber()).toBe(0);
    expect(kept.get("YStep").isNull()).toBe(true);
  });
});
