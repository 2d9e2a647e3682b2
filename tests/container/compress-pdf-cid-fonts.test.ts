/**
 * Compress PDF on composite (CID) fonts and TrueType cmaps built in code: a CID-keyed CFF program
 * cut to the glyphs drawn, numbered densely with its CIDs kept; the ToUnicode CMap, /W widths and
 * /CIDSet of codes no page draws dropped; a TrueType subset's cmap cut to the glyphs it keeps.
 */
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { cffGlyphCount, cidsByGlyph } from "../../engines/pdf/cff-tables.ts";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { readTables } from "../../engines/pdf/sfnt-tables.ts";
import { cidCffFont } from "./cid-cff-font.ts";
import { openPdf, pageTexts, pdfInput, save } from "./fixtures.ts";
import { liberationSans, oneGlyphType3, withShortLoca } from "./font-files.ts";

/** CIDs of the built font: not its glyph ids (glyph n has CID 100 + 3n). */
const CIDS = Array.from({ length: 900 }, (_, index) => 103 + 3 * index);
/** The CIDs the page draws. */
const SHOWN = [106, 703, 2182, 1300, 2800];
const DW = 1000;
const widthOf = (cid: number) => 400 + (cid % 5) * 50;
const hex4 = (value: number) => value.toString(16).padStart(4, "0");

/**
 * A page drawing `SHOWN` with a Type0 font (Identity-H) over the CID-keyed CFF program, whose /W
 * gives every CID a width, its ToUnicode a character, and its descriptor a /CIDSet of every CID.
 */
function cidCffPdf(pdfA = false): Uint8Array {
  const doc = new mupdf.PDFDocument();
  if (pdfA) {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>2</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const metadata = doc.addStream(new TextEncoder().encode(xmp), {
      Type: doc.newName("Metadata"),
      Subtype: doc.newName("XML"),
    });
    doc.getTrailer().get("Root").put("Metadata", metadata);
  }
  const widths: (number | number[])[] = [];
  for (const cid of CIDS) widths.push(cid, [widthOf(cid)]);
  const bits = new Uint8Array(Math.ceil((Math.max(...CIDS) + 1) / 8));
  for (const cid of [0, ...CIDS]) bits[cid >> 3] = (bits[cid >> 3] ?? 0) | (0x80 >> (cid & 7));
  const entries = CIDS.map((cid, index) => `<${hex4(cid)}> <${hex4(0x4e00 + index)}>`);
  const blocks: string[] = [];
  for (let at = 0; at < entries.length; at += 100) {
    const slice = entries.slice(at, at + 100);
    blocks.push(`${slice.length} beginbfchar\n${slice.join("\n")}\nendbfchar`);
  }
  const toUnicode = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CMapName /CodeCid-UCS def /CMapType 2 def",
    "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ...blocks,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  const cidFont = doc.addObject({
    Type: doc.newName("Font"),
    Subtype: doc.newName("CIDFontType0"),
    BaseFont: doc.newName("CodeCid"),
    CIDSystemInfo: { Registry: doc.newString("Adobe"), Ordering: doc.newString("Identity"), Supplement: 0 },
    DW,
    W: widths,
    FontDescriptor: doc.addObject({
      Type: doc.newName("FontDescriptor"),
      FontName: doc.newName("CodeCid"),
      Flags: 4,
      FontBBox: [0, 0, 600, 700],
      ItalicAngle: 0,
      Ascent: 700,
      Descent: 0,
      CapHeight: 700,
      StemV: 80,
      FontFile3: doc.addStream(cidCffFont("CodeCid", CIDS), { Subtype: doc.newName("CIDFontType0C") }),
      CIDSet: doc.addStream(bits, {}),
    }),
  });
  const font = doc.addObject({
    Type: doc.newName("Font"),
    Subtype: doc.newName("Type0"),
    BaseFont: doc.newName("CodeCid"),
    Encoding: doc.newName("Identity-H"),
    DescendantFonts: [cidFont],
    ToUnicode: doc.addStream(new TextEncoder().encode(toUnicode), {}),
  });
  const resources = doc.addObject({ Font: { F: font } });
  const show = `<${SHOWN.map(hex4).join("")}>`;
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, `BT /F 40 Tf 40 700 Td ${show} Tj ET`));
  return save(doc, "compress");
}

async function compress(bytes: Uint8Array): Promise<Uint8Array> {
  return (await compressPdf([pdfInput("in.pdf", bytes)], { quality: "medium" }, () => {})).bytes;
}

/** Page 1 drawn in grey at 72 dpi. */
function pixels(bytes: Uint8Array): Uint8ClampedArray {
  const pixmap = openPdf(bytes)
    .loadPage(0)
    .toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
  return pixmap.getPixels().slice();
}

/** Whether two renderings are the same pixel for pixel (toEqual on half a million pixels is slow). */
function samePixels(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

const pageFont = (bytes: Uint8Array) => openPdf(bytes).findPage(0).get("Resources", "Font", "F");

/** The source codes a ToUnicode CMap maps, one per `bfchar` entry or `bfrange` code. */
function mappedCodes(cmap: string): number[] {
  const codes: number[] = [];
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const entry of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<[0-9a-fA-F]+>/g))
      codes.push(Number.parseInt(entry[1] ?? "", 16));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const entry of (block[1] ?? "").matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      for (
        let code = Number.parseInt(entry[1] ?? "", 16);
        code <= Number.parseInt(entry[2] ?? "", 16);
        code++
      )
        codes.push(code);
  return codes;
}

/** /W as CID → width. */
function widthsOf(w: mupdf.PDFObject): Map<number, number> {
  const widths = new Map<number, number>();
  for (let at = 0; at < w.length; at += 2) {
    const first = w.get(at).asNumber();
    const run = w.get(at + 1);
    for (let i = 0; i < run.length; i++) widths.set(first + i, run.get(i).asNumber());
  }
  return widths;
}

describe("compressPdf on composite fonts", () => {
  it("cuts a CID-keyed CFF program to the glyphs drawn, numbered densely with their CIDs", async () => {
    const input = cidCffPdf();
    const program = (bytes: Uint8Array) =>
      pageFont(bytes).get("DescendantFonts", 0, "FontDescriptor", "FontFile3").readStream().asUint8Array();
    // The page shows every CID as its own glyph (the font draws by CID through its charset).
    const before = pixels(input);
    expect(before.filter((value) => value < 128).length).toBeGreaterThan(500);
    const bytes = await compress(input);
    expect(cffGlyphCount(program(bytes))).toBe(SHOWN.length + 1);
    expect(cidsByGlyph(program(bytes))).toEqual([0, ...[...SHOWN].sort((a, b) => a - b)]);
    expect(samePixels(pixels(bytes), before)).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
  });

  it("keeps the ToUnicode mappings, widths and CIDSet of the CIDs drawn only", async () => {
    const input = cidCffPdf();
    const bytes = await compress(input);
    const font = pageFont(bytes);
    const cmap = new TextDecoder().decode(font.get("ToUnicode").readStream().asUint8Array());
    expect(mappedCodes(cmap).sort((a, b) => a - b)).toEqual([...SHOWN].sort((a, b) => a - b));
    const cidFont = font.get("DescendantFonts", 0);
    expect(cidFont.get("DW").asNumber()).toBe(DW);
    expect(widthsOf(cidFont.get("W"))).toEqual(new Map(SHOWN.map((cid) => [cid, widthOf(cid)])));
    expect(cidFont.get("FontDescriptor", "CIDSet").isNull()).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(pageTexts(openPdf(bytes))[0]).toContain(String.fromCharCode(0x4e00 + CIDS.indexOf(703)));
    expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
  });

  it("writes a PDF/A file's CIDSet again for exactly the CIDs its cut CFF program holds", async () => {
    const bytes = await compress(cidCffPdf(true));
    const descriptor = pageFont(bytes).get("DescendantFonts", 0, "FontDescriptor");
    const program = descriptor.get("FontFile3").readStream().asUint8Array();
    const set = descriptor.get("CIDSet").readStream().asUint8Array();
    const named = Array.from({ length: set.length * 8 }, (_, cid) => cid).filter(
      (cid) => ((set[cid >> 3] ?? 0) & (0x80 >> (cid & 7))) !== 0,
    );
    expect(cidsByGlyph(program)).toEqual([0, ...[...SHOWN].sort((a, b) => a - b)]);
    expect(named).toEqual(cidsByGlyph(program));
  });

  it("keeps in a TrueType subset's cmap the codes of the glyphs it keeps only", async () => {
    const doc = new mupdf.PDFDocument();
    // A composite font (Identity-H) MuPDF's subsetter refuses (see withShortLoca): HarfBuzz cuts it.
    const font = new mupdf.Font("Liberation Sans", withShortLoca(liberationSans()));
    const resources = doc.addObject({ Font: { F: doc.addFont(font) } });
    const glyphs = [..."Cmap cut"].map((char) => hex4(font.encodeCharacter(char))).join("");
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 595, 842], 0, resources, `BT /F 36 Tf 72 720 Td <${glyphs}> Tj ET`),
    );
    const input = save(doc, "compress");
    const bytes = await compress(input);
    const program = (pdf: Uint8Array) =>
      pageFont(pdf).get("DescendantFonts", 0, "FontDescriptor", "FontFile2").readStream().asUint8Array();
    const cmap = readTables(program(bytes))?.get("cmap");
    const original = readTables(program(input))?.get("cmap");
    if (cmap === undefined || original === undefined) throw new Error("no cmap");
    // The same subtables (platform, encoding), in the same order.
    const records = (table: Uint8Array) =>
      Array.from({ length: (table[2] ?? 0) * 256 + (table[3] ?? 0) }, (_, i) =>
        [...table.subarray(4 + 8 * i, 8 + 8 * i)].join(","),
      );
    expect(records(cmap)).toEqual(records(original));
    expect(cmap.length).toBeLessThan(original.length / 5);
    // Every character of the text still reaches its glyph through the cut cmap; others reach none.
    const cut = new mupdf.Font("cut", program(bytes));
    for (const char of "Cmapcut") expect(cut.encodeCharacter(char)).toBe(font.encodeCharacter(char));
    for (const char of "Bbdz") expect(cut.encodeCharacter(char)).toBe(0);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
    expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
  });

  it("keeps whole a font that a Type 3 glyph procedure draws with, drawing the page as before", async () => {
    const doc = new mupdf.PDFDocument();
    const font = new mupdf.Font("Liberation Sans", liberationSans());
    const composite = doc.addFont(font);
    const glyphs = (text: string) => [...text].map((char) => hex4(font.encodeCharacter(char))).join("");
    // Glyph "a" of the Type 3 font draws a W with the composite font, which the page uses too.
    const type3 = oneGlyphType3(doc, `BT /G 800 Tf 0 0 Td <${glyphs("W")}> Tj ET`, {
      Font: { G: composite },
    });
    const resources = doc.addObject({ Font: { T: type3, G: composite } });
    const content = `BT /T 50 Tf 72 700 Td (a) Tj ET BT /G 30 Tf 72 600 Td <${glyphs("Hello")}> Tj ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
    const input = save(doc, "compress");
    const bytes = await compress(input);
    expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
  });
});

describe("compressPdf on forms sharing their sub-forms", () => {
  it("finds the fonts of an annotation whose appearance names shared forms, in a time linear in them", async () => {
    const doc = new mupdf.PDFDocument();
    const font = doc.addSimpleFont(new mupdf.Font("Liberation Sans", liberationSans()), "Latin");
    // 20 levels of forms, each naming the next under 8 names: 8^20 paths, 20 forms.
    let form = doc.addStream(new TextEncoder().encode("BT /F 12 Tf 0 0 Td (Deep) Tj ET"), {
      Type: doc.newName("XObject"),
      Subtype: doc.newName("Form"),
      BBox: [0, 0, 100, 20],
      Resources: { Font: { F: font } },
    });
    for (let level = 0; level < 20; level++) {
      const names = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`X${i}`, form]));
      // Draws one of them; names them all (a resource any content names is kept).
      const content = `/X0 Do % ${Object.keys(names)
        .map((name) => `/${name}`)
        .join(" ")}`;
      form = doc.addStream(new TextEncoder().encode(content), {
        Type: doc.newName("XObject"),
        Subtype: doc.newName("Form"),
        BBox: [0, 0, 100, 20],
        Resources: { XObject: names },
      });
    }
    const resources = doc.addObject({ Font: { F: font } });
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "BT /F 24 Tf 72 720 Td (Shared) Tj ET"));
    const annotation = doc.addObject({
      Type: doc.newName("Annot"),
      Subtype: doc.newName("Stamp"),
      Rect: [72, 600, 172, 620],
      AP: { N: form },
    });
    doc.findPage(0).put("Annots", [annotation]);
    const input = save(doc, "compress");
    const started = performance.now();
    const bytes = await compress(input);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
    expect(pageTexts(openPdf(bytes))).toEqual(pageTexts(openPdf(input)));
  }, 60_000);
});
