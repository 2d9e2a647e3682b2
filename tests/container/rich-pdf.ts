/**
 * Rich test PDFs built in code: HTML laid out by MuPDF (headings, styled text, lists, bordered
 * tables, images) and pages drawn from raw content-stream operators (exact positions for columns,
 * rules, hyphenated line ends, repeating headers and footers).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { save } from "./fixtures.ts";

/** An HTML document laid out on A4 pages by MuPDF and written as a PDF. */
export function htmlPdf(html: string, css = ""): Uint8Array {
  if (css !== "") mupdf.setUserCSS(css);
  const doc = mupdf.Document.openDocument(new TextEncoder().encode(html), "text/html");
  doc.layout(595, 842, 11);
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, "pdf", "");
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    const device = writer.beginPage(page.getBounds());
    page.run(device, mupdf.Matrix.identity);
    writer.endPage();
  }
  writer.close();
  if (css !== "") mupdf.setUserCSS("");
  return buffer.asUint8Array().slice();
}

/**
 * Fonts available to drawn pages: /F1 Helvetica, /F2 Helvetica-Bold, /F3 Times-Roman,
 * /F4 Times-Italic, /F5 Courier.
 */
const FONTS = ["Helvetica", "Helvetica-Bold", "Times-Roman", "Times-Italic", "Courier"] as const;

export interface DrawnPage {
  /** Content-stream operators, PDF coordinates (origin bottom left). */
  readonly content: string;
  readonly width?: number;
  readonly height?: number;
  /** An RGB image available as /Im1. */
  readonly image?: { readonly width: number; readonly height: number };
}

/**
 * /F6: Helvetica-Oblique whose bytes map to the given text through a ToUnicode CMap (what a producer of
 * Indic PDFs writes for its shaped glyphs); its glyphs are Helvetica's, only the text matters.
 */
export type GlyphText = Readonly<Record<string, string>>;

export async function drawnPdf(pages: readonly DrawnPage[], glyphs?: GlyphText): Promise<Uint8Array> {
  const doc = new mupdf.PDFDocument();
  const fonts: Record<string, mupdf.PDFObject> = {};
  FONTS.forEach((name, i) => {
    fonts[`F${i + 1}`] = doc.addSimpleFont(new mupdf.Font(name));
  });
  if (glyphs !== undefined) {
    // A font object of its own (addSimpleFont would share /F1's, and the CMap with it).
    fonts.F6 = doc.addObject({
      Type: "Font",
      Subtype: "Type1",
      BaseFont: "Helvetica-Oblique",
      ToUnicode: doc.addStream(toUnicodeCMap(glyphs), {}),
    });
  }
  for (const page of pages) {
    const resources: Record<string, unknown> = { Font: fonts };
    if (page.image) {
      const png = await gradientPng(page.image.width, page.image.height);
      resources.XObject = { Im1: doc.addImage(new mupdf.Image(png)) };
    }
    doc.insertPage(
      -1,
      doc.addPage([0, 0, page.width ?? 595, page.height ?? 842], 0, doc.addObject(resources), page.content),
    );
  }
  return save(doc);
}

function toUnicodeCMap(glyphs: GlyphText): string {
  const hex = (text: string) =>
    Array.from(text)
      .flatMap((char) => {
        const code = char.codePointAt(0) ?? 0;
        return code > 0xffff ? [char.charCodeAt(0), char.charCodeAt(1)] : [code];
      })
      .map((unit) => unit.toString(16).padStart(4, "0"))
      .join("");
  const entries = Object.entries(glyphs).map(
    ([byte, text]) => `<${byte.charCodeAt(0).toString(16).padStart(2, "0")}> <${hex(text)}>`,
  );
  return [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <00> <FF> endcodespacerange",
    `${entries.length} beginbfchar`,
    ...entries,
    "endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
}

/** `text` shown at (x, y) in font /F<font> at `size` points. */
export function textAt(x: number, y: number, text: string, font = 1, size = 11): string {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  return `BT /F${font} ${size} Tf ${x} ${y} Td (${escaped}) Tj ET\n`;
}

/** A colourful gradient PNG, so its embedding can be told from a blank. */
export async function gradientPng(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

/**
 * Liberation Sans with every glyph outline rewritten as a composite of itself: the font loads, but
 * no glyph can be drawn (FreeType: "invalid composite glyph"), as in recursiveCompositGlyf.pdf.
 */
export function selfCompositeFont(): Uint8Array {
  const path = fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf"));
  const font = new Uint8Array(readFileSync(path));
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const entry = 12 + i * 16;
    tables.set(String.fromCharCode(...font.subarray(entry, entry + 4)), view.getUint32(entry + 8));
  }
  const [head, loca, glyf, maxp] = ["head", "loca", "glyf", "maxp"].map((tag) => tables.get(tag) ?? 0) as [
    number,
    number,
    number,
    number,
  ];
  const longOffsets = view.getInt16(head + 50) === 1;
  const offset = (glyph: number) =>
    longOffsets ? view.getUint32(loca + glyph * 4) : view.getUint16(loca + glyph * 2) * 2;
  for (let glyph = 0; glyph < view.getUint16(maxp + 4); glyph++) {
    if (offset(glyph + 1) - offset(glyph) < 16) continue;
    const start = glyf + offset(glyph);
    view.setInt16(start, -1); // a composite glyph, after its bounding box:
    view.setUint16(start + 10, 0x0002); // one component, byte offsets (ARGS_ARE_XY_VALUES)
    view.setUint16(start + 12, glyph); // itself
    view.setUint16(start + 14, 0);
  }
  return font;
}

/**
 * Pages whose only text MuPDF's own reading missed, where pdftotext reads it: a producer's `Tc`
 * inside a TJ array (MuPDF dropped the whole array: operator-in-TJ-array.pdf), and text in render
 * mode 7 (clip only) in a font whose glyphs cannot be drawn (recursiveCompositGlyf.pdf).
 */
export async function hiddenTextPdfs(): Promise<{ text: string; bytes: Uint8Array }[]> {
  const operatorInArray = await drawnPdf([
    { content: "BT /F1 12 Tf 72 700 Td [(Grandes) 0.0 Tc -250 (Clienteles,) 0 Tc -250 (March\\351s)] TJ ET" },
  ]);
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Broken", selfCompositeFont()));
  const content = "BT /F1 24 Tf 7 Tr 72 700 Td (hello world) Tj ET 1 0 0 rg 0 0 612 792 re";
  doc.insertPage(-1, doc.addPage([0, 0, 612, 792], 0, doc.addObject({ Font: { F1: font } }), content));
  return [
    { text: "Grandes Clienteles, March\u00e9s", bytes: operatorInArray },
    { text: "hello world", bytes: save(doc) },
  ];
}

/**
 * One line "Party: AB" in Helvetica whose /ToUnicode maps A to U+1F389 (an emoji) and B to
 * U+20041 (a CJK Extension B ideograph): characters outside the BMP, as an emoji font or a
 * Chinese name in a Chromium-printed page gives them.
 */
export function astralTextPdf(): Uint8Array {
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CMapName /Astral def 1 begincodespacerange <00> <FF> endcodespacerange",
    "2 beginbfchar <41> <D83CDF89> <42> <D840DC41> endbfchar",
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  const content = "BT /F1 24 Tf 72 700 Td (Party: AB) Tj ET";
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ]);
}

/** The rows of `columnRuledTablesPdf`'s first table, as drawn. */
export const COLUMN_RULED_ROWS = [
  ["Region", "Q1", "Q2"],
  ["North", "1200", "1350"],
  ["South", "980", "1010"],
  ["East", "1105", "1190"],
] as const;

/**
 * Two tables ruled between columns but not between rows, as tbl's "box" table and LaTeX's tabular
 * without \hline draw them: a box, a rule under the header, rules between columns, the body's rows
 * one grid row (COLUMN_RULED_ROWS); then Item/Qty/Price whose wrapped description beside one-line
 * values is one row ("Steel widget, large model", 2, 617.28).
 */
export function columnRuledTablesPdf(): Promise<Uint8Array> {
  const content = [
    "0.5 w 100 600 m 400 600 l 400 700 l 100 700 l h S 100 680 m 400 680 l S 200 600 m 200 700 l S 300 600 m 300 700 l S\n",
    ...COLUMN_RULED_ROWS.flatMap((row, r) =>
      row.map((text, c) => textAt(110 + c * 100, 686 - r * 22 - (r > 0 ? 4 : 0), text)),
    ),
    "100 520 m 400 520 l 400 580 l 100 580 l h S 200 520 m 200 580 l S 300 520 m 300 580 l S 100 550 m 400 550 l S\n",
    textAt(110, 565, "Item"),
    textAt(210, 565, "Qty"),
    textAt(310, 565, "Price"),
    textAt(110, 538, "Steel widget,"),
    textAt(110, 525, "large model"),
    textAt(210, 538, "2"),
    textAt(310, 538, "617.28"),
  ].join("");
  return drawnPdf([{ content }]);
}
