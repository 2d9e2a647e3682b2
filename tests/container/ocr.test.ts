/**
 * OCR on scans built in code (text typeset with the project's Noto fonts, drawn at 200 dpi, saved
 * as JPEG, some pages turned): the words come back from pdftotext and MuPDF in each script, page
 * counts hold, the scans' bytes are unchanged, turned pages come out upright, pages with text are
 * kept unless redone, and images (JPEG, multi-page TIFF) become searchable PDFs.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import ocr from "../../tools/ocr/container.ts";
import { pageImageStreams, type ScanPage, scanImage, scanPdf } from "../support/scan-pages.ts";
import {
  hasPdftotext,
  pdfText,
  popplerText,
  type ScriptName,
  wordF1,
  wordsOf,
} from "../support/script-text.ts";
import { ssim } from "../support/ssim.ts";
import { engineFailure } from "./engine-failure.ts";
import { textPdf } from "./fixtures.ts";

const ENGLISH = "The quick brown fox jumps over the lazy dog near the river bank";
const HINDI = "भारत एक विशाल देश है। यहाँ अनेक भाषाएँ बोली जाती हैं और संस्कृति समृद्ध है।";
const GERMAN = "Die Katze schläft auf dem warmen Sofa im Wohnzimmer";
const TAMIL = "தமிழ் ஒரு பழமையான மொழி. இது இந்தியாவில் பேசப்படுகிறது.";
const TELUGU = "తెలుగు ఒక అందమైన భాష. ఇది ఆంధ్రప్రదేశ్ లో మాట్లాడతారు.";

/** Word F1 a recognised script must reach against its source (Tesseract on clean 200 dpi scans). */
const MIN_F1 = 0.85;

const PAGES: readonly ScanPage[] = [
  { markdown: `# Scanned letter\n\n${ENGLISH}.\n\n${HINDI}` },
  { markdown: `# Zweite Seite\n\n${GERMAN}.\n\n${TAMIL}`, turn: 90 },
  { markdown: `# Third page\n\n${TELUGU}`, turn: 180 },
];

async function run(bytes: Uint8Array, kind: "pdf" | "jpeg" | "tiff", languages?: string, redo = false) {
  const progress: number[] = [];
  const output = await ocr(
    [{ name: `scan.${kind}`, kind, bytes }],
    { languages, redo_text: redo },
    (percent) => progress.push(percent),
  );
  return { ...output, progress };
}

function score(source: string, extracted: string, script: ScriptName): number {
  return wordF1(wordsOf(source, script), wordsOf(extracted, script));
}

/** Page `index` drawn in grey at `dpi`, as raw samples with its size. */
function render(bytes: Uint8Array, index: number, dpi = 50) {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const pixmap = doc
      .loadPage(index)
      .toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
    const image = {
      width: pixmap.getWidth(),
      height: pixmap.getHeight(),
      channels: 1 as const,
      data: pixmap.getPixels().slice(),
    };
    pixmap.destroy();
    return image;
  } finally {
    doc.destroy();
  }
}

describe("OCR of a scanned PDF", async () => {
  const scans = await Promise.all(PAGES.map((page) => scanImage(page)));
  const scanned = scanPdf(scans);
  const result = await run(scanned, "pdf", "en,hi,de,ta,te");

  it("keeps the page count and every scan's bytes, and reports progress page by page", () => {
    expect(result.facts).toMatchObject({ pages: 3, pages_recognised: 3, pages_with_text: 0 });
    expect(pageImageStreams(result.bytes)).toEqual(pageImageStreams(scanned));
    expect(result.progress.length).toBeGreaterThanOrEqual(4);
    expect(result.progress.at(-1)).toBe(100);
  });

  it.skipIf(!hasPdftotext)("gives the words back through pdftotext in every script", () => {
    const text = popplerText(result.bytes);
    expect(
      score(`Scanned letter ${ENGLISH} Zweite Seite ${GERMAN} Third page`, text, "latin"),
    ).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(HINDI, text, "devanagari")).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(TAMIL, text, "tamil")).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(TELUGU, text, "telugu")).toBeGreaterThanOrEqual(MIN_F1);
    // Logical order with conjuncts and vowel signs: whole words come out as typed.
    for (const word of ["संस्कृति", "भाषाएँ", "இந்தியாவில்", "ఆంధ్రప్రదేశ్"]) expect(text).toContain(word);
  });

  it("gives the words back through MuPDF too", () => {
    const text = pdfText(result.bytes);
    expect(score(HINDI, text, "devanagari")).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(TELUGU, text, "telugu")).toBeGreaterThanOrEqual(MIN_F1);
  });

  it("turns the sideways and upside-down pages upright without touching their scans", async () => {
    expect(result.facts.pages_turned).toBe(2);
    // Each output page looks like the typeset original: compare with the upright scan of page 1.
    const upright = await Promise.all(PAGES.map((page) => scanImage({ markdown: page.markdown })));
    const reference = scanPdf(upright);
    for (const index of [0, 1, 2]) {
      const page = render(result.bytes, index);
      const expected = render(reference, index);
      expect([page.width, page.height], `page ${index + 1}`).toEqual([expected.width, expected.height]);
      expect(ssim(page, expected), `page ${index + 1}`).toBeGreaterThan(0.95);
    }
  });

  it("leaves the page's look unchanged (the text is invisible)", () => {
    const before = render(scanned, 0, 100);
    const after = render(result.bytes, 0, 100);
    expect(ssim(after, before)).toBeGreaterThanOrEqual(0.999);
  });

  it("keeps pages that already have text, and redoes only its own layer when asked", async () => {
    const again = await run(result.bytes, "pdf", "en,hi");
    expect(again.facts).toMatchObject({ pages: 3, pages_recognised: 0, pages_with_text: 3, words: 0 });
    const redone = await run(result.bytes, "pdf", "en,hi,de,ta,te", true);
    expect(redone.facts).toMatchObject({ pages: 3, pages_recognised: 3, pages_turned: 0 });
    // The earlier layer is replaced, not doubled.
    const count = (bytes: Uint8Array) => wordsOf(pdfText(bytes), "telugu").length;
    expect(count(redone.bytes)).toBe(count(result.bytes));
  });
});

describe("OCR without a language chosen", () => {
  it("detects each page's script and reads it with its model", async () => {
    const scan = await scanImage({ markdown: `# हिन्दी पृष्ठ\n\n${HINDI}\n\n${HINDI}` });
    const result = await run(scanPdf([scan]), "pdf");
    const source = `हिन्दी पृष्ठ ${HINDI} ${HINDI}`;
    expect(score(source, pdfText(result.bytes), "devanagari")).toBeGreaterThanOrEqual(MIN_F1);
  });

  it("reads a page mixing scripts with the models of both", async () => {
    // Mostly English: the page's script is detected as Latin, its Hindi and Tamil lines as theirs.
    const markdown = `# Letter\n\n${ENGLISH}.\n\n${ENGLISH}.\n\n${HINDI}\n\n${TAMIL}`;
    const result = await run(scanPdf([await scanImage({ markdown })]), "pdf");
    const text = pdfText(result.bytes);
    expect(score(`Letter ${ENGLISH} ${ENGLISH}`, text, "latin")).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(HINDI, text, "devanagari")).toBeGreaterThanOrEqual(MIN_F1);
    expect(score(TAMIL, text, "tamil")).toBeGreaterThanOrEqual(MIN_F1);
  });
});

/** A one-page PDF whose page paints only an axial shading (the `sh` operator). */
function shadingPdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const numbers = (values: number[]) => {
    const array = doc.newArray();
    for (const value of values) array.push(value);
    return array;
  };
  const fn = doc.newDictionary();
  fn.put("FunctionType", 2);
  fn.put("Domain", numbers([0, 1]));
  fn.put("C0", numbers([1, 0, 0]));
  fn.put("C1", numbers([0, 0, 1]));
  fn.put("N", 1);
  const shading = doc.newDictionary();
  shading.put("ShadingType", 2);
  shading.put("ColorSpace", doc.newName("DeviceRGB"));
  shading.put("Coords", numbers([0, 0, 200, 0]));
  shading.put("Function", fn);
  const shadings = doc.newDictionary();
  shadings.put("Sh0", doc.addObject(shading));
  const resources = doc.newDictionary();
  resources.put("Shading", shadings);
  doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, resources, "/Sh0 sh"));
  const bytes = doc.saveToBuffer("").asUint8Array().slice();
  doc.destroy();
  return bytes;
}

describe("OCR of pages MuPDF.js hands borrowed objects", () => {
  it("leaves MuPDF's heap sound after pages with shadings, whenever the garbage collector runs", async () => {
    // MuPDF.js gives a device's fillShade a Shade it does not keep but drops when collected: the
    // shading was freed twice and a later job trapped ("memory access out of bounds").
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const shaded = shadingPdf();
    for (let round = 0; round < 12; round++) {
      expect((await run(shaded, "pdf", "en")).facts.pages).toBe(1);
      collect();
      await new Promise((settle) => setTimeout(settle, 5));
    }
    const after = await run(scanPdf([await scanImage({ markdown: `# After\n\n${ENGLISH}.` })]), "pdf", "en");
    expect(score(ENGLISH, pdfText(after.bytes), "latin")).toBeGreaterThanOrEqual(MIN_F1);
  });
});

describe("OCR of images", () => {
  it("makes a JPEG a one-page PDF holding the JPEG byte for byte", async () => {
    const jpeg = await scanImage({ markdown: `# Letter\n\n${ENGLISH}.` });
    const result = await run(jpeg, "jpeg", "en");
    expect(result.facts.pages).toBe(1);
    expect(pageImageStreams(result.bytes)[0]).toEqual(jpeg);
    // The page has the image's size at its stated 200 dpi (A4).
    const doc = mupdf.Document.openDocument(result.bytes, "application/pdf");
    const [, , width, height] = doc.loadPage(0).getBounds();
    doc.destroy();
    expect(Math.round(width)).toBe(595);
    expect(Math.round(height)).toBe(842);
    expect(score(ENGLISH, pdfText(result.bytes), "latin")).toBeGreaterThanOrEqual(MIN_F1);
  });

  it("recognises a BMP scan (libvips reads no BMP header)", async () => {
    const jpeg = await scanImage({ markdown: `# Bitmap\n\n${ENGLISH}.` });
    const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    // 24-bit, bottom-up rows padded to 4 bytes, BITMAPINFOHEADER, 300 dpi (11811 pixels a metre).
    const stride = Math.ceil((info.width * 3) / 4) * 4;
    const bmp = new Uint8Array(54 + stride * info.height);
    const view = new DataView(bmp.buffer);
    bmp.set([0x42, 0x4d]);
    view.setUint32(2, bmp.length, true);
    view.setUint32(10, 54, true);
    view.setUint32(14, 40, true);
    view.setInt32(18, info.width, true);
    view.setInt32(22, info.height, true);
    view.setUint16(26, 1, true);
    view.setUint16(28, 24, true);
    view.setUint32(38, 11811, true);
    view.setUint32(42, 11811, true);
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        const from = (y * info.width + x) * info.channels;
        const to = 54 + (info.height - 1 - y) * stride + x * 3;
        bmp.set([data[from + 2] ?? 0, data[from + 1] ?? 0, data[from] ?? 0], to);
      }
    const output = await ocr(
      [{ name: "scan.bmp", kind: "bmp", bytes: bmp }],
      { languages: "en", redo_text: false },
      () => {},
    );
    expect(output.facts).toMatchObject({ pages: 1, pages_recognised: 1 });
    expect(score(`Bitmap ${ENGLISH}`, pdfText(output.bytes), "latin")).toBeGreaterThanOrEqual(MIN_F1);
  });

  it("recognises every page of a multi-page TIFF", async () => {
    const pages = await Promise.all(
      [{ markdown: `# One\n\n${ENGLISH}.` }, { markdown: `# Two\n\n${GERMAN}.` }].map((page) =>
        scanImage(page),
      ),
    );
    const raws = await Promise.all(
      pages.map((jpeg) => sharp(jpeg).raw().toBuffer({ resolveWithObject: true })),
    );
    const first = raws[0];
    if (first === undefined) throw new Error("no page");
    const tiff = await sharp(Buffer.concat(raws.map((page) => page.data)), {
      raw: {
        width: first.info.width,
        height: first.info.height * raws.length,
        channels: first.info.channels,
        pageHeight: first.info.height,
      },
    })
      .tiff({ compression: "lzw" })
      .toBuffer();
    const result = await run(new Uint8Array(tiff), "tiff", "en,de");
    expect(result.facts).toMatchObject({ pages: 2, pages_recognised: 2 });
    const text = pdfText(result.bytes);
    expect(score(`One ${ENGLISH} Two ${GERMAN}`, text, "latin")).toBeGreaterThanOrEqual(MIN_F1);
  });
});

/** A line of text another program put on a scan, `fromTop` points below the page's top edge. */
interface AddedText {
  readonly text: string;
  /** Render mode 3 (an invisible OCR layer) or 0 (text that shows, e.g. a stamped caption). */
  readonly mode: 0 | 3;
  readonly fromTop: number;
}

/** A scan page as another program leaves it: the JPEG, then each text in Helvetica. */
function scanWithText(jpeg: Uint8Array, ...texts: readonly AddedText[]): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    const image = new mupdf.Image(jpeg);
    const width = (image.getWidth() * 72) / 200;
    const height = (image.getHeight() * 72) / 200;
    const resources = {
      XObject: { Im0: doc.addImage(image) },
      Font: { F1: doc.addSimpleFont(new mupdf.Font("Helvetica")) },
    };
    const lines = texts.map(
      ({ text, mode, fromTop }) => `BT ${mode} Tr /F1 24 Tf 60 ${height - fromTop} Td (${text}) Tj ET`,
    );
    const content = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q ${lines.join(" ")}`;
    doc.insertPage(-1, doc.addPage([0, 0, width, height], 0, resources, content));
    return doc.saveToBuffer("compress").asUint8Array().slice();
  } finally {
    doc.destroy();
  }
}

/** How many times `word` occurs in `text`. */
const occurrences = (text: string, word: string) => text.split(word).length - 1;

describe.skipIf(!hasPdftotext)("OCR redoing pages with text", () => {
  it("removes another program's invisible layer, so the text comes out once", async () => {
    const jpeg = await scanImage({ markdown: `# Letter\n\n${ENGLISH}.` });
    const old = scanWithText(jpeg, { text: "Stale quokka layer", mode: 3, fromTop: 40 });
    expect(popplerText(old)).toContain("quokka");
    const kept = await run(old, "pdf", "en");
    expect(kept.facts).toMatchObject({ pages_recognised: 0, pages_with_text: 1 });
    const redone = await run(old, "pdf", "en", true);
    expect(redone.facts).toMatchObject({ pages_recognised: 1 });
    const text = popplerText(redone.bytes);
    expect(text).not.toContain("quokka");
    expect(occurrences(text, "quick brown fox")).toBe(1);
    expect(pageImageStreams(redone.bytes)).toEqual(pageImageStreams(old));
  });

  it("keeps text that shows, and leaves its words out of the new layer", async () => {
    const jpeg = await scanImage({ markdown: `# Letter\n\n${ENGLISH}.` });
    const stamped = scanWithText(jpeg, { text: "Received Tuesday", mode: 0, fromTop: 40 });
    const redone = await run(stamped, "pdf", "en", true);
    const text = popplerText(redone.bytes);
    expect(occurrences(text, "Tuesday")).toBe(1);
    expect(occurrences(text, "quick brown fox")).toBe(1);
  });

  it("removes an old invisible layer beside text that shows, so the new text comes out once", async () => {
    const jpeg = await scanImage({ markdown: `# Letter\n\n${ENGLISH}.` });
    // A stamp that shows at the top; an old OCR layer of the body's words, invisible, lower down.
    const both = scanWithText(
      jpeg,
      { text: "Received Tuesday", mode: 0, fromTop: 40 },
      { text: "The quick brown fox jumps over a quokka", mode: 3, fromTop: 600 },
    );
    expect(occurrences(popplerText(both), "quick brown fox")).toBe(1);
    const redone = await run(both, "pdf", "en", true);
    expect(redone.facts).toMatchObject({ pages_recognised: 1 });
    const text = popplerText(redone.bytes);
    expect(text).not.toContain("quokka");
    expect(occurrences(text, "quick brown fox")).toBe(1);
    expect(occurrences(text, "Tuesday")).toBe(1);
    expect(pageImageStreams(redone.bytes)).toEqual(pageImageStreams(both));
  });
});

describe("OCR page cap", () => {
  it("refuses a TIFF of 41 pages with TOO_MANY_PAGES before recognising any", async () => {
    const page = { width: 40, height: 40, channels: 1 as const };
    const pages = 41;
    const tiff = await sharp(Buffer.alloc(page.width * page.height * pages, 255), {
      raw: { ...page, height: page.height * pages, pageHeight: page.height },
    })
      .tiff()
      .toBuffer();
    const error = await engineFailure(run(new Uint8Array(tiff), "tiff", "en"));
    expect(error).toMatchObject({ code: "TOO_MANY_PAGES", context: { pages: 41, max_pages: 40 } });
  });
});

describe("OCR of a PDF with text", () => {
  it("keeps born-digital pages as they are", async () => {
    const result = await run(textPdf("born digital", 2), "pdf", "en");
    expect(result.facts).toMatchObject({ pages: 2, pages_recognised: 0, pages_with_text: 2 });
  });
});
