/**
 * Rich test PDFs built in code: HTML laid out by MuPDF (headings, styled text, lists, bordered
 * tables, images) and pages drawn from raw content-stream operators (exact positions for columns,
 * rules, hyphenated line ends, repeating headers and footers).
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
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
