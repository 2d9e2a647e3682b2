/**
 * Compress PDF engine on PDFs built in code (a large photo drawn small, a 1-bit scan, text, a form
 * field, bookmarks, links) and, when present, on ../shared/corpus/pdf.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { describe, expect, it, vi } from "vitest";
import { AppError } from "../../contract/index.ts";
import { cffGlyphCount } from "../../engines/pdf/cff-tables.ts";
import { compressPdf } from "../../engines/pdf/compress.ts";
import type { CompressionLevelName } from "../../engines/pdf/compress-levels.ts";
import { readTables } from "../../engines/pdf/sfnt-tables.ts";
import { ssim } from "../support/ssim.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  encryptedPdf,
  flatOutline,
  openPdf,
  pageTexts,
  pdfInput,
  save,
  textPdfDocument,
} from "./fixtures.ts";
import { liberationSans, withShortLoca } from "./font-files.ts";
import { type1Font } from "./type1-font.ts";

const PHOTO = { width: 2400, height: 1800 };
const SCAN = { width: 800, height: 200 };
/** A photo drawn at 200×150 pt at 432 ppi: resampled to 417 pixels wide at medium (150 ppi). */
const SMALL = { width: 1200, height: 900 };

/** Smooth colour gradients with mild noise: many colours, like a photo. */
function photoPixels(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  let seed = 7;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const noise = (seed >> 16) % 9;
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width + noise;
      pixels[i + 1] = (y * 255) / height + noise;
      pixels[i + 2] = 128 + 100 * Math.sin((x + y) / 90) + noise;
    }
  }
  return pixels;
}

/** One bit per pixel: stripes, as a scanned line of text would be stored. */
function scanBits(width: number, height: number): Uint8Array {
  const rowBytes = width / 8;
  const bits = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++)
    for (let b = 0; b < rowBytes; b++) bits[y * rowBytes + b] = y % 8 < 4 ? 0xf0 : 0x0f;
  return bits;
}

/** An 8-bit image XObject (RGB unless `extra` says otherwise) added to `doc`. */
function addImage(
  doc: mupdf.PDFDocument,
  pixels: Uint8Array,
  size: { width: number; height: number },
  extra: Record<string, unknown> = {},
): mupdf.PDFObject {
  return doc.addStream(pixels, {
    Type: "XObject",
    Subtype: "Image",
    Width: size.width,
    Height: size.height,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8,
    ...extra,
  });
}

/** Puts `images` in the resources of page `index` under their names and draws `drawing` before its text. */
function drawImages(
  doc: mupdf.PDFDocument,
  index: number,
  images: Record<string, mupdf.PDFObject>,
  drawing: string,
): void {
  const page = doc.findPage(index);
  page.get("Resources").put("XObject", doc.newDictionary());
  for (const [name, image] of Object.entries(images)) page.get("Resources", "XObject").put(name, image);
  const contents = page.get("Contents");
  contents.writeStream(`${drawing} ${contents.readStream().asString()}`);
}

/**
 * A TrueType collection of `fonts`: a "ttcf" header with one table directory per face, each
 * pointing at that face's tables, which follow unchanged (every font file keeps its own offsets
 * shifted by where it now starts).
 */
function collection(fonts: readonly Uint8Array[]): Uint8Array {
  const header = 12 + 4 * fonts.length;
  const out = new Uint8Array(header + fonts.reduce((sum, font) => sum + font.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x74746366);
  view.setUint32(4, 0x00010000);
  view.setUint32(8, fonts.length);
  let at = header;
  for (const [index, font] of fonts.entries()) {
    view.setUint32(12 + 4 * index, at);
    out.set(font, at);
    const tables = view.getUint16(at + 4);
    for (let table = 0; table < tables; table++) {
      const record = at + 12 + 16 * table + 8;
      view.setUint32(record, view.getUint32(record) + at);
    }
    at += font.length;
  }
  return out;
}

/** Three pages of text with a form field, bookmarks and links; page 1 draws a 2400×1800 photo at 200×150 pt. */
function photoPdf(): Uint8Array {
  const doc = textPdfDocument("Compress", 3, {
    links: true,
    field: ["name", "Ada"],
    outline: [
      ["Start", 0, [["Photo", 0]]],
      ["End", 2],
    ],
  });
  const photo = addImage(doc, photoPixels(PHOTO.width, PHOTO.height), PHOTO);
  const scan = doc.addStream(scanBits(SCAN.width, SCAN.height), {
    Type: "XObject",
    Subtype: "Image",
    Width: SCAN.width,
    Height: SCAN.height,
    ColorSpace: "DeviceGray",
    BitsPerComponent: 1,
  });
  drawImages(
    doc,
    0,
    { Photo: photo, Scan: scan },
    "q 200 0 0 150 72 500 cm /Photo Do Q q 400 0 0 100 72 250 cm /Scan Do Q",
  );
  return save(doc, "compress");
}

async function compress(bytes: Uint8Array, quality: CompressionLevelName = "medium") {
  const progress: number[] = [];
  const output = await compressPdf([pdfInput("in.pdf", bytes)], { quality }, (percent) =>
    progress.push(percent),
  );
  return { ...output, progress };
}

function fieldCount(doc: mupdf.PDFDocument): number {
  const fields = doc.getTrailer().get("Root", "AcroForm", "Fields");
  return fields.isArray() ? fields.length : 0;
}

function linkCounts(doc: mupdf.PDFDocument): number[] {
  return Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).getLinks().length);
}

function renderPage(doc: mupdf.PDFDocument, index: number, dpi = 100) {
  const scale = dpi / 72;
  const pixmap = doc
    .loadPage(index)
    .toPixmap([scale, 0, 0, scale, 0, 0], mupdf.ColorSpace.DeviceRGB, false, true);
  return {
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    data: pixmap.getPixels().slice(),
    channels: 3 as const,
  };
}

function pageOneSsim(before: Uint8Array, after: Uint8Array): number {
  return ssim(renderPage(openPdf(before), 0), renderPage(openPdf(after), 0));
}

/** The image XObjects of a document, by their dictionaries. */
function imageDictionaries(doc: mupdf.PDFDocument): mupdf.PDFObject[] {
  const images: mupdf.PDFObject[] = [];
  for (let num = 1; num < doc.countObjects(); num++) {
    const object = doc.newIndirect(num);
    if (object.isStream() && object.get("Subtype").asName() === "Image") images.push(object);
  }
  return images;
}

/**
 * A one-page PDF drawing `show` (a text-showing operation) with the Type 1 font built in code
 * (type1-font.ts) embedded as /FontFile; with the program's length.
 */
function type1FontPdf(
  show: string,
  encoding: (doc: mupdf.PDFDocument) => mupdf.PDFObject = (doc) => doc.newName("WinAnsiEncoding"),
): { input: Uint8Array; programLength: number } {
  const { clear, encrypted } = type1Font("CodeSerif");
  const doc = new mupdf.PDFDocument();
  const fontFile = doc.addStream(new Uint8Array([...clear, ...encrypted]), {
    Length1: clear.length,
    Length2: encrypted.length,
    Length3: 0,
  });
  const font = doc.addObject({
    Type: doc.newName("Font"),
    Subtype: doc.newName("Type1"),
    BaseFont: doc.newName("CodeSerif"),
    Encoding: encoding(doc),
    FontDescriptor: doc.addObject({
      Type: doc.newName("FontDescriptor"),
      FontName: doc.newName("CodeSerif"),
      Flags: 34,
      FontBBox: [-200, -250, 1100, 900],
      ItalicAngle: 0,
      Ascent: 700,
      Descent: -250,
      CapHeight: 650,
      StemV: 80,
      FontFile: fontFile,
    }),
  });
  const resources = doc.addObject({ Font: { F: font } });
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, `BT /F 36 Tf 72 720 Td ${show} ET`));
  return { input: save(doc, "compress"), programLength: clear.length + encrypted.length };
}

/** The program of page 1's font F, once converted to CFF (/FontFile3). */
function type1FontProgram(bytes: Uint8Array): Uint8Array {
  return openPdf(bytes)
    .findPage(0)
    .get("Resources", "Font", "F", "FontDescriptor", "FontFile3")
    .readStream()
    .asUint8Array();
}

/**
 * A page showing "Hello" in Times (font /Body) and "World" in Helvetica (/Form), both composite
 * CFF fonts embedded whole.
 */
function twoFontPage() {
  const doc = new mupdf.PDFDocument();
  const times = new mupdf.Font("Times-Roman");
  const helvetica = new mupdf.Font("Helvetica");
  const resources = doc.addObject({ Font: { Body: doc.addFont(times), Form: doc.addFont(helvetica) } });
  const contents = `BT /Body 24 Tf 72 720 Td <${glyphIds(times, "Hello")}> Tj ET BT /Form 24 Tf 72 680 Td <${glyphIds(helvetica, "World")}> Tj ET`;
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, contents));
  return { doc, resources, helvetica };
}

/** `text` in `font` as a two-byte hex string (Identity-H codes). */
function glyphIds(font: mupdf.Font, text: string): string {
  return [...text].map((c) => font.encodeCharacter(c).toString(16).padStart(4, "0")).join("");
}

/** The size of the program of the composite font `name` of page 1 (its own or inherited resources). */
function fontBytes(pdf: mupdf.PDFDocument, name: string): number {
  return pdf
    .findPage(0)
    .getInheritable("Resources")
    .get("Font", name, "DescendantFonts", 0, "FontDescriptor", "FontFile3")
    .readStream()
    .getLength();
}

/** Compresses a twoFontPage PDF: the page's font cut, the form's kept whole, the text as before. */
async function expectBodySubsetFormWhole(input: Uint8Array): Promise<void> {
  const { bytes, facts } = await compress(input);
  expect(facts.fonts_subset).toBe(true);
  const [before, after] = [openPdf(input), openPdf(bytes)];
  expect(fontBytes(after, "Body")).toBeLessThan(fontBytes(before, "Body") / 2);
  expect(fontBytes(after, "Form")).toBe(fontBytes(before, "Form"));
  expect(pageTexts(after)).toEqual(pageTexts(before));
}

describe("compressPdf", () => {
  const input = photoPdf();

  it("makes a PDF with a large photo drawn small much smaller and keeps what it shows", async () => {
    const { bytes, facts, progress } = await compress(input);
    expect(bytes.length).toBeLessThan(input.length * 0.2);
    expect(facts).toMatchObject({ pages: 3, original_size: input.length, new_size: bytes.length });
    expect(facts.already_optimized).toBe(false);
    expect(facts.images_recompressed).toBe(1);
    expect(facts.images_downsampled).toBe(1);
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.95);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(100);
  });

  it("keeps text, form fields, bookmarks and links", async () => {
    const { bytes } = await compress(input);
    const before = openPdf(input);
    const after = openPdf(bytes);
    expect(pageTexts(after)).toEqual(pageTexts(before));
    expect(fieldCount(after)).toBe(1);
    expect(fieldCount(after)).toBe(fieldCount(before));
    expect(after.getTrailer().get("Root", "AcroForm", "Fields", 0, "V").asString()).toBe("Ada");
    expect(flatOutline(after)).toEqual(flatOutline(before));
    expect(linkCounts(after)).toEqual(linkCounts(before));
    expect(linkCounts(after)).toEqual([2, 2, 2]);
  });

  it("resamples the photo to the level's resolution as JPEG and leaves the 1-bit scan bilevel", async () => {
    const images = imageDictionaries(openPdf((await compress(input)).bytes));
    const photo = images.find((image) => image.get("Filter").toString() === "/DCTDecode");
    // 200 pt = 2.78 in at 150 ppi.
    expect(photo?.get("Width").asNumber()).toBe(Math.round((PHOTO.width * 150) / (PHOTO.width / (200 / 72))));
    expect(photo?.get("ColorSpace").asName()).toBe("DeviceRGB");
    const scan = images.find((image) => image.get("BitsPerComponent").asNumber() === 1);
    expect(scan?.get("Width").asNumber()).toBe(SCAN.width);
    expect(scan?.get("Filter").toString()).not.toBe("/DCTDecode");
  });

  it("subsets the fonts pages use, but keeps whole the font form fields are filled with", async () => {
    const { doc, resources } = twoFontPage();
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form.put("DA", doc.newString("/Form 12 Tf 0 g"));
    form.put("DR", doc.addObject({ Font: { Form: resources.get("Font", "Form") } }));
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    await expectBodySubsetFormWhole(input);
  });

  it("subsets the fonts of a form whose forms share their resources, reading each form once", async () => {
    const { doc, resources, helvetica } = twoFontPage();
    // As Scribus writes its form appearances: each form's resources name every form before it, and
    // the first form the font. A walk along every path reads 2^13 forms here (millions on 22 forms).
    const forms: mupdf.PDFObject[] = [];
    for (let index = 0; index < 14; index++) {
      const earlier = Object.fromEntries(forms.map((form, at) => [`RE${at}`, form]));
      const formResources =
        index === 0 ? { Font: { Form: resources.get("Font", "Form") } } : { XObject: earlier };
      const shown = index === 0 ? `BT /Form 12 Tf <${glyphIds(helvetica, "4")}> Tj ET` : "";
      const form = doc.addStream(shown, { Type: "XObject", Subtype: "Form", BBox: [0, 0, 12, 12] });
      form.put("Resources", doc.addObject(formResources));
      forms.push(form);
    }
    // The page inherits its resources from the page tree, and the form's are the same dictionary.
    resources.put("XObject", doc.addObject({ Top: forms.at(-1) }));
    doc.findPage(0).delete("Resources");
    doc.getTrailer().get("Root", "Pages").put("Resources", resources);
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form
      .get("Fields")
      .push(doc.addObject({ FT: "Tx", T: doc.newString("Total"), DA: doc.newString("/Form 12 Tf 0 g") }));
    form.put("DR", resources);
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    const forEach = vi.spyOn(mupdf.PDFObject.prototype, "forEach");
    try {
      await expectBodySubsetFormWhole(input);
      expect(forEach.mock.calls.length).toBeLessThan(1_000);
    } finally {
      forEach.mockRestore();
    }
  });

  it("reads each field of a field tree once, however often the tree names it", async () => {
    const { doc, resources } = twoFontPage();
    // Each level's /Kids names the next field twice (a walk along every path reads 2^12 fields).
    let kid = doc.addObject({ FT: "Tx", T: doc.newString("Deepest"), DA: doc.newString("/Form 12 Tf 0 g") });
    for (let level = 0; level < 12; level++) {
      kid = doc.addObject({ T: doc.newString(`Level ${level}`), Kids: [kid, kid] });
    }
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form.get("Fields").push(kid);
    form.put("DR", doc.addObject({ Font: { Form: resources.get("Font", "Form") } }));
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    const get = vi.spyOn(mupdf.PDFObject.prototype, "get");
    try {
      await expectBodySubsetFormWhole(input);
      expect(get.mock.calls.filter(([key]) => key === "Kids").length).toBeLessThan(200);
    } finally {
      get.mockRestore();
    }
  });

  it("subsets the fonts of a page whose annotation list and appearances hold nulls", async () => {
    const { doc } = twoFontPage();
    const annotations = doc.newArray();
    annotations.push(doc.newNull());
    annotations.push(
      doc.addObject({ Type: "Annot", Subtype: "Square", Rect: [0, 0, 10, 10], AP: { N: {} } }),
    );
    annotations.get(1).get("AP", "N").put("On", doc.newNull());
    doc.findPage(0).put("Annots", annotations);
    const input = save(doc, "compress");
    const { bytes, facts } = await compress(input);
    expect(facts.fonts_subset).toBe(true);
    const [before, after] = [openPdf(input), openPdf(bytes)];
    expect(fontBytes(after, "Body")).toBeLessThan(fontBytes(before, "Body") / 2);
    expect(pageTexts(after)).toEqual(pageTexts(before));
  });

  it("subsets a one-byte form font to the codes of its encoding, every one drawing as before", async () => {
    const doc = new mupdf.PDFDocument();
    // A simple font can only show the 256 codes of its encoding: those are all a user can type.
    // Liberation Sans (shipped with pdf.js) has ~2600 glyphs: Latin, Greek, Cyrillic.
    const liberation = readFileSync(
      fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf")),
    );
    const fieldFont = doc.addSimpleFont(new mupdf.Font("Liberation Sans", liberation), "Latin");
    const resources = doc.addObject({ Font: { Helv: fieldFont } });
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "BT /Helv 24 Tf 72 720 Td (Name:) Tj ET"));
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form.put("DA", doc.newString("/Helv 12 Tf 0 g"));
    form.put("DR", doc.addObject({ Font: { Helv: fieldFont } }));
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    const fontFile = (pdf: mupdf.PDFDocument) =>
      pdf.getTrailer().get("Root", "AcroForm", "DR", "Font", "Helv", "FontDescriptor", "FontFile2");
    /** Every code 32–255 drawn with the form's font on a page of its own, as grey pixels. */
    const everyCode = (bytes: Uint8Array) => {
      const pdf = openPdf(bytes);
      const codes = Array.from({ length: 224 }, (_, i) => (i + 32).toString(16).padStart(2, "0"));
      const rows = Array.from({ length: 7 }, (_, row) => codes.slice(row * 32, row * 32 + 32).join(""));
      const text = rows.map((row, i) => `BT /F 16 Tf 20 ${800 - i * 40} Td <${row}> Tj ET`).join("\n");
      const pageResources = pdf.addObject({
        Font: { F: pdf.getTrailer().get("Root", "AcroForm", "DR", "Font", "Helv") },
      });
      pdf.insertPage(-1, pdf.addPage([0, 0, 595, 842], 0, pageResources, text));
      const page = pdf.loadPage(pdf.countPages() - 1);
      return page
        .toPixmap(mupdf.Matrix.scale(1.5, 1.5), mupdf.ColorSpace.DeviceGray, false)
        .getPixels()
        .slice();
    };
    const { bytes } = await compress(input);
    const [before, after] = [openPdf(input), openPdf(bytes)];
    expect(fontFile(after).readStream().getLength()).toBeLessThan(fontFile(before).readStream().getLength());
    const [drawnBefore, drawnAfter] = [everyCode(input), everyCode(bytes)];
    expect(drawnBefore.some((value) => value < 128)).toBe(true);
    expect(Buffer.from(drawnAfter).equals(Buffer.from(drawnBefore))).toBe(true);
    expect(pageTexts(after)).toEqual(pageTexts(before));
  });

  it("drops a whole embedded font from the resources of a form without fields when nothing names it", async () => {
    const doc = new mupdf.PDFDocument();
    const liberation = readFileSync(
      fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf")),
    );
    const helvetica = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const resources = doc.addObject({ Font: { Helv: helvetica } });
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "BT /Helv 24 Tf 72 720 Td (Hello) Tj ET"));
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form.put("DA", doc.newString("/Helv 0 Tf 0 g"));
    const arial = doc.addSimpleFont(new mupdf.Font("Liberation Sans", liberation));
    form.put("DR", doc.addObject({ Font: { Helv: helvetica, Arial: arial } }));
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    const [before, after] = [openPdf(input), openPdf(bytes)];
    expect(bytes.length).toBeLessThan(input.length / 10);
    expect(pageTexts(after)).toEqual(pageTexts(before));
    const formFonts = after.getTrailer().get("Root", "AcroForm", "DR", "Font");
    expect(formFonts.get("Helv").isDictionary()).toBe(true);
    expect(formFonts.get("Arial").isNull()).toBe(true);
  });

  it("keeps the fonts of a page whose resources are also the resources of a form without fields", async () => {
    const { doc, resources } = twoFontPage();
    const form = doc.newDictionary();
    form.put("Fields", doc.newArray());
    form.put("DR", resources);
    doc.getTrailer().get("Root").put("AcroForm", form);
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    const [before, after] = [openPdf(input), openPdf(bytes)];
    expect(pageTexts(after)).toEqual(pageTexts(before));
    expect(fontBytes(after, "Body")).toBeLessThan(fontBytes(before, "Body") / 2);
    expect(fontBytes(after, "Form")).toBeLessThan(fontBytes(before, "Form") / 2);
    expect(after.getTrailer().get("Root", "AcroForm", "DR", "Font").get("Body").isNull()).toBe(true);
  });

  it("drops the Type 3 glyphs and fonts no page draws, and draws the page as before", async () => {
    const doc = new mupdf.PDFDocument();
    let seed = 11;
    const coordinate = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed >> 8) % 1000;
    };
    // A glyph: a shape of 60 random points (no resources: Type 3 fonts may leave them out).
    const glyph = () => {
      const points = Array.from({ length: 60 }, () => `${coordinate()} ${coordinate()} l`).join(" ");
      return doc.addStream(`1000 0 0 0 1000 1000 d1 0 0 m ${points} h f`, {});
    };
    const type3Font = (glyphs: number) => {
      const names = Array.from({ length: glyphs }, (_, i) => `g${i}`);
      const procs = doc.newDictionary();
      for (const name of names) procs.put(name, glyph());
      return doc.addObject({
        Type: "Font",
        Subtype: "Type3",
        FontBBox: [0, 0, 1000, 1000],
        FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
        CharProcs: procs,
        Encoding: { Type: "Encoding", Differences: [1, ...names.map((name) => doc.newName(name))] },
        FirstChar: 1,
        LastChar: glyphs,
        Widths: names.map(() => 1000),
      });
    };
    const resources = doc.addObject({ Font: { Drawn: type3Font(200), Unused: type3Font(200) } });
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 300, 100], 0, resources, "BT /Drawn 40 Tf 10 30 Td <0103c8> Tj ET"),
    );
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    expect(bytes.length).toBeLessThan(input.length / 20);
    const after = openPdf(bytes);
    const fonts = after.findPage(0).get("Resources", "Font");
    expect(fonts.get("Unused").isNull()).toBe(true);
    const kept: string[] = [];
    fonts.get("Drawn", "CharProcs").forEach((_glyph, name) => {
      kept.push(String(name));
    });
    expect(kept.sort()).toEqual(["g0", "g199", "g2"]);
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.999);
  });

  it("subsets a font embedded as a whole TrueType collection, using the face the PDF names", async () => {
    const face = (name: string) =>
      new Uint8Array(
        readFileSync(fileURLToPath(import.meta.resolve(`pdfjs-dist/standard_fonts/${name}.ttf`))),
      );
    const [bold, regular] = [face("LiberationSans-Bold"), face("LiberationSans-Regular")];
    const doc = new mupdf.PDFDocument();
    const font = doc.addSimpleFont(new mupdf.Font("Liberation Sans", regular), "Latin");
    const resources = doc.addObject({ Font: { F: font } });
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 595, 842], 0, resources, "BT /F 24 Tf 72 720 Td (Collection) Tj ET"),
    );
    // The regular face is the second of the collection, as Cambria Math is in Cambria.ttc.
    font.get("FontDescriptor", "FontFile2").writeStream(collection([bold, regular]));
    font.get("FontDescriptor").put("FontName", doc.newName("LiberationSans"));
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    const fontFile = openPdf(bytes).findPage(0).get("Resources", "Font", "F", "FontDescriptor", "FontFile2");
    const program = fontFile.readStream().asUint8Array();
    expect(new TextDecoder().decode(program.subarray(0, 4))).not.toBe("ttcf");
    expect(program.length).toBeLessThan(regular.length / 4);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.99);
  });

  it("subsets an embedded Type 1 font (/FontFile) to the glyphs drawn, every one drawing as before", async () => {
    const { input, programLength } = type1FontPdf("(Type One) Tj");
    const { bytes } = await compress(input);
    // The subset program is then converted to CFF (compress-type1-cff.ts): its glyphs are those kept,
    // .notdef and the seven of "Type One".
    const program = type1FontProgram(bytes);
    expect(program.length).toBeLessThan(programLength / 3);
    expect(cffGlyphCount(program)).toBe(8);
    // The glyphs draw (a page left blank by a broken font would compare alike too).
    const page = renderPage(openPdf(bytes), 0);
    expect(page.data.filter((value) => value < 128).length).toBeGreaterThan(1500);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.999);
  });

  it("converts an embedded Type 1 program to CFF (Type1C), every code drawing as before", async () => {
    // Every letter: the subset keeps them all, so only the conversion makes the program smaller.
    const letters = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"];
    const { input, programLength } = type1FontPdf(`(${letters.join("")}) Tj`);
    const { bytes } = await compress(input);
    const descriptor = (pdf: mupdf.PDFDocument) =>
      pdf.findPage(0).get("Resources", "Font", "F", "FontDescriptor");
    const after = descriptor(openPdf(bytes));
    expect(after.get("FontFile").isNull()).toBe(true);
    expect(after.get("FontFile3", "Subtype").asName()).toBe("Type1C");
    expect(after.get("FontFile3").readRawStream().getLength()).toBeLessThan(programLength / 2);
    /** Every code 0–255 of the page's font, each in a cell of its own, as grey pixels. */
    const everyCode = (pdf: mupdf.PDFDocument) => {
      const text = Array.from(
        { length: 256 },
        (_, code) =>
          `BT /F 16 Tf ${10 + (code % 32) * 18} ${800 - Math.floor(code / 32) * 40} Td <${code.toString(16).padStart(2, "0")}> Tj ET`,
      ).join("\n");
      const resources = pdf.addObject({ Font: { F: pdf.findPage(0).get("Resources", "Font", "F") } });
      pdf.insertPage(-1, pdf.addPage([0, 0, 595, 842], 0, resources, text));
      return pdf
        .loadPage(pdf.countPages() - 1)
        .toPixmap(mupdf.Matrix.scale(3, 3), mupdf.ColorSpace.DeviceGray, false)
        .getPixels()
        .slice();
    };
    const [drawnBefore, drawnAfter] = [everyCode(openPdf(input)), everyCode(openPdf(bytes))];
    expect(drawnBefore.filter((value) => value < 128).length).toBeGreaterThan(1000);
    expect(Buffer.from(drawnAfter).equals(Buffer.from(drawnBefore))).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
  });

  it("keeps only the /Differences entries of codes the subset Type 1 font still draws", async () => {
    // As pdfTeX writes it: the whole encoding vector, letters and digits (the font has no digits).
    const names = [..."0123456789"].map((_, i) => ["zero", "one", "two", "three", "four"][i % 5] ?? "");
    const vector = (doc: mupdf.PDFDocument) =>
      doc.addObject({
        Type: doc.newName("Encoding"),
        Differences: [
          48,
          ...names.map((name) => doc.newName(name)),
          65,
          ...[..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((name) => doc.newName(name)),
          97,
          ...[..."abcdefghijklmnopqrstuvwxyz"].map((name) => doc.newName(name)),
        ],
      });
    const differences = (bytes: Uint8Array) =>
      openPdf(bytes).findPage(0).get("Resources", "Font", "F", "Encoding", "Differences").toString();
    const { input } = type1FontPdf("(TypeOne) Tj", vector);
    const { bytes } = await compress(input);
    expect(differences(bytes)).toBe("[79/O 84/T 101/e 110/n 112/p 121/y]");
    expect(
      Buffer.from(renderPage(openPdf(bytes), 0).data).equals(Buffer.from(renderPage(openPdf(input), 0).data)),
    ).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    // A page showing a code without a glyph (the font has no digits: "1" draws .notdef): every entry stays.
    const { input: withNotdef } = type1FontPdf("(Type1) Tj", vector);
    const { bytes: kept } = await compress(withNotdef);
    expect(differences(kept)).toBe(differences(withNotdef));
    // An encoding a form's resources name (for typed values) stays whole too.
    const formDoc = openPdf(input);
    const form = formDoc.newDictionary();
    form.put("Fields", formDoc.newArray());
    const shared = formDoc.findPage(0).get("Resources", "Font", "F", "Encoding");
    form.put("DR", formDoc.addObject({ Encoding: { Shared: shared } }));
    formDoc.getTrailer().get("Root").put("AcroForm", form);
    const withForm = save(formDoc, "compress");
    const { bytes: formKept } = await compress(withForm);
    expect(differences(formKept)).toBe(differences(withForm));
  });

  it("subsets a TrueType font whose loca table is cut short, which MuPDF's subsetter refuses", async () => {
    // The table directory gives `loca` one entry less than the glyph count needs (its last glyph's
    // end is missing), as some producers write it: viewers draw the other glyphs.
    const regular = withShortLoca(liberationSans());
    const doc = new mupdf.PDFDocument();
    const font = doc.addSimpleFont(new mupdf.Font("Liberation Sans", regular), "Latin");
    const resources = doc.addObject({ Font: { F: font } });
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 595, 842], 0, resources, "BT /F 36 Tf 72 720 Td (Short loca) Tj ET"),
    );
    const input = save(doc, "compress");
    const program = (bytes: Uint8Array) =>
      openPdf(bytes).findPage(0).get("Resources", "Font", "F", "FontDescriptor", "FontFile2").readStream();
    const { bytes } = await compress(input);
    expect(program(bytes).getLength()).toBeLessThan(program(input).getLength() / 10);
    // Without the hinting program (fpgm, prep, cvt): MuPDF draws TrueType glyphs unhinted.
    const tables = readTables(program(bytes).asUint8Array());
    expect(tables?.has("glyf")).toBe(true);
    expect(tables?.has("fpgm")).toBe(false);
    const page = renderPage(openPdf(bytes), 0);
    expect(page.data.filter((value) => value < 128).length).toBeGreaterThan(1500);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.999);
  });

  it("points the CID-to-glyph map's entries for glyphs the subset dropped at one empty glyph", async () => {
    const regular = readFileSync(
      fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf")),
    );
    const doc = new mupdf.PDFDocument();
    const font = new mupdf.Font("Liberation Sans", regular);
    const type0 = doc.addFont(font);
    const glyphs = [..."Glyph map"]
      .map((c) => font.encodeCharacter(c).toString(16).padStart(4, "0"))
      .join("");
    const resources = doc.addObject({ Font: { F: type0 } });
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 595, 842], 0, resources, `BT /F 24 Tf 72 720 Td <${glyphs}> Tj ET`),
    );
    // A map for every CID of the whole font, as TCPDF writes it: CID n is glyph n.
    const map = new Uint8Array(2 * 0x10000);
    for (let cid = 0; cid < 0x10000; cid++) new DataView(map.buffer).setUint16(2 * cid, cid);
    type0.get("DescendantFonts", 0).put("CIDToGIDMap", doc.addStream(map, {}));
    const input = save(doc, "compress");
    const mapBytes = (bytes: Uint8Array) =>
      openPdf(bytes)
        .findPage(0)
        .get("Resources", "Font", "F", "DescendantFonts", 0, "CIDToGIDMap")
        .readRawStream()
        .getLength();
    const { bytes } = await compress(input);
    expect(mapBytes(bytes)).toBeLessThan(mapBytes(input) / 10);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.99);
  });

  it("drops resources no content names and keeps those it does", async () => {
    const doc = textPdfDocument("Unused", 1);
    const page = doc.findPage(0);
    const image = addImage(doc, photoPixels(300, 200), { width: 300, height: 200 });
    page.get("Resources").put("XObject", doc.newDictionary());
    page.get("Resources", "XObject").put("Spare", image);
    const input = save(doc, "compress");
    const { bytes, facts } = await compress(input);
    expect(facts.unused_resources_removed).toBe(1);
    const after = openPdf(bytes);
    expect(imageDictionaries(after)).toHaveLength(0);
    expect(after.findPage(0).get("Resources", "Font", "F1").isNull()).toBe(false);
    expect(pageTexts(after)).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.99);
  });

  it("drops a font that contents select but never show text with", async () => {
    const regular = readFileSync(
      fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf")),
    );
    const doc = new mupdf.PDFDocument();
    const unused = doc.addSimpleFont(new mupdf.Font("Liberation Sans", regular), "Latin");
    const helvetica = doc.addObject({
      Type: doc.newName("Font"),
      Subtype: doc.newName("Type1"),
      BaseFont: doc.newName("Helvetica"),
    });
    // The page selects U and shows no text itself; its text is in a form with resources of its own.
    const form = doc.addStream("BT /F 24 Tf 72 720 Td (Drawn in a form) Tj ET", {
      Type: doc.newName("XObject"),
      Subtype: doc.newName("Form"),
      BBox: [0, 0, 595, 842],
      Resources: doc.addObject({ Font: { F: helvetica } }),
    });
    const resources = doc.addObject({ Font: { U: unused }, XObject: { X: form } });
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "BT /U 13 Tf ET q /X Do Q"));
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    const after = openPdf(bytes);
    expect(after.findPage(0).get("Resources", "Font", "U").isNull()).toBe(true);
    expect(bytes.length).toBeLessThan(regular.length / 10);
    expect(pageTexts(after)).toEqual(pageTexts(openPdf(input)));
    expect(pageOneSsim(input, bytes)).toBeGreaterThanOrEqual(0.99);
  });

  it("subsets a Type 1 font drawn partly on a hidden layer, keeping the hidden layer's glyphs", async () => {
    const { input: plain } = type1FontPdf("(Shown) Tj");
    const doc = openPdf(plain);
    const layer = doc.addObject({ Type: doc.newName("OCG"), Name: doc.newString("Notes") });
    const properties = doc.newDictionary();
    properties.put("OCProperties", doc.addObject({ OCGs: [layer], D: { OFF: [layer], Order: [layer] } }));
    doc.getTrailer().get("Root").put("OCProperties", properties.get("OCProperties"));
    const page = doc.findPage(0);
    page.get("Resources").put("Properties", doc.addObject({ L: layer }));
    const shown = "BT /F 36 Tf 72 720 Td (Shown) Tj ET";
    page.put("Contents", doc.addStream(`${shown}\n/OC /L BDC BT /F 36 Tf 72 600 Td (Hidden) Tj ET EMC`, {}));
    const input = save(doc, "compress");
    const { bytes } = await compress(input);
    const program = type1FontProgram(bytes);
    // .notdef and the nine letters of "Shown" and "Hidden".
    expect(cffGlyphCount(program)).toBe(10);
    /** The page with its layer switched on. */
    const withLayer = (bytes: Uint8Array) => {
      const pdf = openPdf(bytes);
      pdf.setLayerVisible(0, true);
      return renderPage(pdf, 0);
    };
    const [before, after] = [withLayer(input), withLayer(bytes)];
    expect(before.data.filter((value) => value < 128).length).toBeGreaterThan(
      renderPage(openPdf(input), 0).data.filter((value) => value < 128).length,
    );
    expect(ssim(before, after)).toBeGreaterThanOrEqual(0.999);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
  });

  it("merges byte-identical images into one object", async () => {
    const doc = textPdfDocument("Twins", 2);
    const pixels = photoPixels(64, 48);
    for (let index = 0; index < 2; index++) {
      const image = addImage(doc, pixels, { width: 64, height: 48 });
      drawImages(doc, index, { Logo: image }, "q 64 0 0 48 72 500 cm /Logo Do Q");
    }
    const twins = save(doc, "compress");
    const { bytes, facts } = await compress(twins);
    expect(facts.duplicates_merged).toBe(1);
    expect(imageDictionaries(openPdf(bytes))).toHaveLength(1);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(twins)));
  });

  it("resamples an image with a soft mask, and its mask, to where the image is drawn", async () => {
    const doc = textPdfDocument("Masked", 1);
    const mask = addImage(
      doc,
      Uint8Array.from({ length: SMALL.width * SMALL.height }, (_, i) => (i % SMALL.width) % 256),
      SMALL,
      { ColorSpace: "DeviceGray" },
    );
    const photo = addImage(doc, photoPixels(SMALL.width, SMALL.height), SMALL, { SMask: mask });
    drawImages(doc, 0, { Photo: photo }, `q 200 0 0 150 72 500 cm /Photo Do Q`);
    const masked = save(doc, "compress");
    const { bytes, facts } = await compress(masked);
    expect(bytes.length).toBeLessThan(masked.length * 0.2);
    expect(facts.images_downsampled).toBe(2);
    const after = openPdf(bytes).findPage(0).get("Resources", "XObject", "Photo");
    // 200 pt = 2.78 in at 150 ppi.
    expect(after.get("Width").asNumber()).toBe(417);
    expect(after.get("Filter").asName()).toBe("DCTDecode");
    expect(after.get("SMask", "Width").asNumber()).toBe(417);
    expect(after.get("SMask", "Filter").asName()).toBe("FlateDecode");
    expect(pageOneSsim(masked, bytes)).toBeGreaterThanOrEqual(0.95);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(masked)));
  });

  it("sizes images on a hidden layer where the layer draws them, and turns spot colours into RGB", async () => {
    const doc = textPdfDocument("Layers", 1);
    const layer = doc.addObject({ Type: "OCG", Name: "Print only" });
    const layers = doc.newArray();
    layers.push(layer);
    doc
      .getTrailer()
      .get("Root")
      .put("OCProperties", doc.addObject({ OCGs: layers, D: { OFF: layers, Order: layers } }));
    const photo = addImage(doc, photoPixels(SMALL.width, SMALL.height), SMALL, { OC: layer });
    // A spot colour (Separation) image: one ink, tinted through a function into RGB.
    const tint = doc.addObject({ FunctionType: 2, Domain: [0, 1], C0: [1, 1, 1], C1: [0.1, 0.3, 0.7], N: 1 });
    const spot = addImage(
      doc,
      Uint8Array.from({ length: 1200 * 800 }, (_, i) => (i % 1200) % 200),
      { width: 1200, height: 800 },
      { ColorSpace: ["Separation", "Brand", "DeviceRGB", tint] },
    );
    drawImages(
      doc,
      0,
      { Photo: photo, Spot: spot },
      `q 200 0 0 150 72 500 cm /Photo Do Q q 200 0 0 133 300 500 cm /Spot Do Q`,
    );
    const layered = save(doc, "compress");
    const { bytes } = await compress(layered);
    const after = openPdf(bytes);
    const xobjects = after.findPage(0).get("Resources", "XObject");
    expect(xobjects.get("Photo", "Width").asNumber()).toBe(417);
    expect(xobjects.get("Spot", "ColorSpace").asName()).toBe("DeviceRGB");
    // The layer stays off, as it was.
    expect(after.isLayerVisible(0)).toBe(false);
    expect(after.getTrailer().get("Root", "OCProperties", "D", "OFF").length).toBe(1);
    expect(pageOneSsim(layered, bytes)).toBeGreaterThanOrEqual(0.95);
  });

  it("drops the XMP of images and the application-private XMP of the document, keeping its title", async () => {
    const doc = textPdfDocument("Metadata", 1);
    const thumbnail = "A".repeat(40_000);
    const packet = (body: string) =>
      `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpGImg="http://ns.adobe.com/xap/1.0/g/img/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Annual report</rdf:li></rdf:Alt></dc:title>${body}</rdf:Description></rdf:RDF></x:xmpmeta>${" ".repeat(2000)}<?xpacket end="w"?>`;
    const xmp = (body: string) =>
      doc.addRawStream(new TextEncoder().encode(packet(body)), { Type: "Metadata", Subtype: "XML" });
    doc
      .getTrailer()
      .get("Root")
      .put(
        "Metadata",
        xmp(
          `<xmp:Thumbnails><rdf:Alt><rdf:li><xmpGImg:image>${thumbnail}</xmpGImg:image></rdf:li></rdf:Alt></xmp:Thumbnails>`,
        ),
      );
    const image = addImage(
      doc,
      photoPixels(64, 48),
      { width: 64, height: 48 },
      { Metadata: xmp(`<xmp:Thumbnails>${thumbnail}</xmp:Thumbnails>`) },
    );
    drawImages(doc, 0, { Logo: image }, `q 64 0 0 48 72 500 cm /Logo Do Q`);
    const input = save(doc, "garbage=compact,compress,objstms");
    const { bytes } = await compress(input);
    expect(bytes.length).toBeLessThan(input.length / 2);
    const after = openPdf(bytes);
    expect(after.findPage(0).get("Resources", "XObject", "Logo", "Metadata").isNull()).toBe(true);
    const documentXmp = after.getTrailer().get("Root", "Metadata").readStream().asString();
    expect(documentXmp).toContain("Annual report");
    expect(documentXmp).not.toContain("xmp:Thumbnails");
    expect(documentXmp).toMatch(/<\?xpacket end="w"\?>$/);
    expect(pageTexts(after)).toEqual(pageTexts(openPdf(input)));
  });

  it("drops a print output intent and its profile, but keeps the one a PDF/A file needs", async () => {
    const withIntent = (pdfA: boolean) => {
      const doc = textPdfDocument("Intent", 1);
      const profile = doc.addStream(photoPixels(120, 100), { N: 4 });
      const intent = { Type: "OutputIntent", S: pdfA ? "GTS_PDFA1" : "GTS_PDFX", DestOutputProfile: profile };
      const root = doc.getTrailer().get("Root");
      root.put("OutputIntents", doc.newArray());
      root.get("OutputIntents").push(doc.addObject(intent));
      const claim = pdfA ? `<pdfaid:part>2</pdfaid:part>` : "";
      const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">${claim}</rdf:Description></rdf:RDF></x:xmpmeta>`;
      root.put(
        "Metadata",
        doc.addRawStream(new TextEncoder().encode(xmp), { Type: "Metadata", Subtype: "XML" }),
      );
      return save(doc, "garbage=compact,compress,objstms");
    };
    const print = withIntent(false);
    const printOut = await compress(print);
    expect(printOut.bytes.length).toBeLessThan(print.length / 2);
    expect(openPdf(printOut.bytes).getTrailer().get("Root", "OutputIntents").isNull()).toBe(true);
    const archive = withIntent(true);
    const archiveOut = await compress(archive);
    const intents = openPdf(archiveOut.bytes).getTrailer().get("Root", "OutputIntents");
    expect(intents.get(0, "DestOutputProfile").readStream().getLength()).toBe(120 * 100 * 3);
  });

  it("makes smaller files at lower levels", async () => {
    const sizes = [];
    for (const level of ["high", "medium", "low"] as const)
      sizes.push((await compress(input, level)).bytes.length);
    expect(sizes[1]).toBeLessThan(sizes[0] ?? 0);
    expect(sizes[2]).toBeLessThan(sizes[1] ?? 0);
  });

  it("returns the original unchanged when it cannot make the file smaller", async () => {
    const tight = save(textPdfDocument("Tight", 1), "garbage=compact,compress,objstms");
    const { bytes, facts } = await compress(tight);
    expect(bytes).toEqual(tight);
    expect(facts).toMatchObject({
      already_optimized: true,
      original_size: tight.length,
      new_size: tight.length,
    });
  });

  it("refuses a password-protected PDF", async () => {
    const error = await engineFailure(compress(encryptedPdf()));
    expect(error.code).toBe("PDF_ENCRYPTED");
    expect(error.context).toEqual({ file_index: 0 });
  });
});

const corpus = new URL("../../../shared/corpus/pdf/", import.meta.url);

describe.skipIf(!existsSync(corpus))("compressPdf on the corpus", () => {
  const files = existsSync(corpus) ? readdirSync(corpus).filter((name) => name.endsWith(".pdf")) : [];

  it.each(files)(
    "%s: never larger, same pages, text and fields, page 1 alike",
    { timeout: 120_000 },
    async (name) => {
      const input = new Uint8Array(readFileSync(new URL(name, corpus)));
      let output: Awaited<ReturnType<typeof compress>>;
      try {
        output = await compress(input);
      } catch (error) {
        // Only files the product refuses by design may fail.
        expect(error).toBeInstanceOf(AppError);
        expect(["PDF_ENCRYPTED", "PDF_DAMAGED"]).toContain((error as AppError).code);
        return;
      }
      expect(output.bytes.length).toBeLessThanOrEqual(input.length);
      if (output.facts.already_optimized) return;
      const before = openPdf(input);
      const after = openPdf(output.bytes);
      expect(after.countPages()).toBe(before.countPages());
      expect(fieldCount(after)).toBe(fieldCount(before));
      expect(pageTexts(after)[0]).toBe(pageTexts(before)[0]);
      expect(pageOneSsim(input, output.bytes)).toBeGreaterThanOrEqual(0.95);
    },
  );
});
