/**
 * The invisible text layer of a recognised page: each word written in text render mode 3 (neither
 * filled nor stroked) over the place it was read from, so viewers search, select and copy it
 * while the page looks exactly as before.
 *
 * The font is "glyphless": a Type0 font whose character codes are the word's UTF-16 code units
 * (Identity-H) and whose ToUnicode map gives each code back as itself. The text therefore comes out
 * of any extractor (pdftotext, pdf.js, MuPDF) exactly as Tesseract recognised it, in logical
 * order, whatever the script: a Hindi conjunct or a Tamil vowel sign is its Unicode sequence, never
 * glyphs to map back. Every code has the same advance; a horizontal scale stretches each word
 * (with the space after it) over its box. No font program is embedded: nothing is drawn.
 */
import * as mupdf from "mupdf";
import { roundedPdfNumber as number } from "../pdf/images-to-pdf-layout.ts";
import type { OcrLine } from "./tesseract.ts";

/** Resource name of the font in the pages' /Font dictionaries. */
export const OCR_FONT_NAME = "OcrGlyphless";
/** First line of the layer's content stream: how a later run recognises (and replaces) it. */
export const TEXT_LAYER_MARK = "%ocr-text-layer";

/** Advance of every code, in 1/1000 of the font size. */
const ADVANCE = 500;
/** Where the baseline sits in a line's box, from the top (the rest is for descenders). */
const BASELINE = 0.78;

/** PDF matrix [a b c d e f]. */
type Matrix = readonly [number, number, number, number, number, number];

/** The glyphless font, added once per document. */
export function addGlyphlessFont(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const toUnicode = doc.addStream(
    [
      "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
      "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
      "1 begincodespacerange <0000> <FFFF> endcodespacerange",
      "1 beginbfrange <0000> <FFFF> <0000> endbfrange",
      "endcmap CMapName currentdict /CMap defineresource pop end end",
    ].join("\n"),
    {},
  );
  const descriptor = doc.addObject({
    Type: "FontDescriptor",
    FontName: OCR_FONT_NAME,
    Flags: 5,
    FontBBox: [0, 0, ADVANCE, 1000],
    ItalicAngle: 0,
    Ascent: 1000,
    Descent: 0,
    CapHeight: 1000,
    StemV: 80,
  });
  const cidFont = doc.addObject({
    Type: "Font",
    Subtype: "CIDFontType2",
    BaseFont: OCR_FONT_NAME,
    CIDSystemInfo: { Registry: doc.newString("Adobe"), Ordering: doc.newString("Identity"), Supplement: 0 },
    FontDescriptor: descriptor,
    DW: ADVANCE,
    CIDToGIDMap: "Identity",
  });
  return doc.addObject({
    Type: "Font",
    Subtype: "Type0",
    BaseFont: OCR_FONT_NAME,
    Encoding: "Identity-H",
    DescendantFonts: [cidFont],
    ToUnicode: toUnicode,
  });
}

/**
 * The content stream that writes `lines` (in the pixels of an image drawn with `toPixels`, the
 * matrix from the page's user space to those pixels) as invisible text in user space.
 */
export function textLayerContent(lines: readonly OcrLine[], toPixels: Matrix): string {
  const toUser = mupdf.Matrix.invert(toPixels as mupdf.Matrix);
  const out = [TEXT_LAYER_MARK, "BT", "3 Tr", `/${OCR_FONT_NAME} 1 Tf`];
  for (const line of lines) {
    const size = line.height;
    if (size <= 0) continue;
    const baseline = line.top + BASELINE * line.height;
    line.words.forEach((word, index) => {
      const next = line.words[index + 1];
      // The space after a word covers the gap to the next one, so extractors see the break.
      const text = next === undefined ? word.text : `${word.text} `;
      const right = next === undefined ? word.left + word.width : next.left;
      const units = text.length;
      const width = Math.max(1, right - word.left);
      const scale = (width / ((units * ADVANCE * size) / 1000)) * 100;
      // Glyph space to pixels: y points up in glyph space and down in the image.
      const inPixels: Matrix = [size, 0, 0, -size, word.left, baseline];
      const matrix = mupdf.Matrix.concat(inPixels as mupdf.Matrix, toUser);
      out.push(`${number(scale)} Tz ${[...matrix].map(number).join(" ")} Tm <${utf16Hex(text)}> Tj`);
    });
  }
  out.push("ET");
  return `${out.join("\n")}\n`;
}

/** The text's UTF-16 code units as hex, four digits each (the Identity-H codes). */
function utf16Hex(text: string): string {
  let hex = "";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return hex;
}
