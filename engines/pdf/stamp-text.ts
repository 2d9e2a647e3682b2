/**
 * Lines of text set by MuPDF's HTML layout (HarfBuzz shaping: conjuncts, vowel signs, Tamil
 * ligatures) in the bundled Noto fonts (engines/markdown/fonts.ts), turned into form XObjects of a
 * target document so a tool can draw them on its pages. The written glyphs get ActualText where
 * the font's character map cannot give their text back (engines/markdown/actual-text.ts), so
 * `pdftotext` and viewers copy the real characters. All lines are written into one stamp document
 * first: each font is embedded and subset once, whatever the number of lines.
 */
import * as mupdf from "mupdf";
import { addActualText } from "../markdown/actual-text.ts";
import { prepareFonts } from "../markdown/fonts.ts";
import { type DrawnGlyph, recordGlyphs } from "../markdown/glyph-text.ts";

/** A line of text as a form XObject of the target document: its box is [0 0 width height]. */
export interface TextForm {
  readonly form: mupdf.PDFObject;
  /**
   * The same drawing under an empty ActualText, so text extractors skip it: for text turned at an
   * angle other than a quarter, which Poppler reads as scattered letters (measured: "DR AF T"),
   * drawn beside an invisible upright copy of `form` that carries the text.
   */
  readonly silent: mupdf.PDFObject;
  readonly width: number;
  readonly height: number;
}

export interface TextStyle {
  /** Font size in points. */
  readonly size: number;
  /** CSS colour, e.g. "#000000". */
  readonly color: string;
  readonly bold?: boolean;
}

/** Room above the baseline and below it, in font sizes: Indic marks reach far on both sides. */
const ASCENT = 1.15;
const DESCENT = 0.45;

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function htmlLine(text: string, style: TextStyle): Uint8Array {
  const css = `@page{margin:0}body{margin:0;font-family:sans-serif;font-size:${style.size}pt;color:${style.color};font-weight:${style.bold ? 700 : 400}}p{margin:0;white-space:nowrap}`;
  return new TextEncoder().encode(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${css}</style></head><body><p>${escapeHtml(text)}</p></body></html>`,
  );
}

interface LaidOutLine {
  readonly document: mupdf.Document;
  readonly glyphs: DrawnGlyph[];
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  /** The written content stream before ActualText was added (set once written). */
  plain: string;
}

function layoutLine(text: string, style: TextStyle): LaidOutLine {
  const document = mupdf.Document.openDocument(htmlLine(text, style), "text/html");
  document.layout(20 * style.size * Math.max(1, text.length), 4 * style.size, style.size);
  const glyphs: DrawnGlyph[] = [];
  const page = document.loadPage(0);
  const recorder = recordGlyphs(glyphs);
  page.run(recorder, mupdf.Matrix.identity);
  recorder.close();
  page.destroy();
  const left = Math.min(...glyphs.map((glyph) => glyph.x), 0);
  const right = Math.max(...glyphs.map((glyph) => glyph.x + glyph.advance), left + 1);
  const baseline = glyphs[0]?.y ?? style.size;
  const top = baseline - ASCENT * style.size;
  return {
    document,
    glyphs,
    left,
    top,
    width: right - left,
    height: (ASCENT + DESCENT) * style.size,
    plain: "",
  };
}

/**
 * Each text as a form XObject of `target`, set in `style`. Lines with nothing to draw (only
 * spaces) still get a form, of the size their spaces take.
 */
export async function textForms(
  target: mupdf.PDFDocument,
  texts: readonly string[],
  style: TextStyle,
): Promise<TextForm[]> {
  await prepareFonts();
  const output = new mupdf.Buffer();
  const lines: LaidOutLine[] = [];
  try {
    const writer = new mupdf.DocumentWriter(output, "pdf", "");
    for (const text of texts) {
      const line = layoutLine(text, style);
      lines.push(line);
      const device = writer.beginPage([0, 0, line.width, line.height]);
      const page = line.document.loadPage(0);
      page.run(device, mupdf.Matrix.translate(-line.left, -line.top));
      page.destroy();
      writer.endPage();
    }
    writer.close();
    const stamp = new mupdf.PDFDocument(output.asUint8Array().slice());
    try {
      for (const [index, line] of lines.entries()) {
        const contents = stamp.findPage(index).get("Contents");
        line.plain = contents.readStream().asString();
        // The glyphs were recorded before the move: their text is what matters, not their place.
        const moved = line.glyphs.map((glyph) => ({
          ...glyph,
          x: glyph.x - line.left,
          y: glyph.y - line.top,
        }));
        contents.writeStream(addActualText(contents.readStream().asString(), moved).content);
      }
      stamp.subsetFonts();
      return graftForms(target, stamp, lines);
    } finally {
      stamp.destroy();
    }
  } finally {
    for (const line of lines) line.document.destroy();
    output.destroy();
  }
}

/** Each page of the stamp document as a form XObject of `target` (resources grafted once). */
function graftForms(target: mupdf.PDFDocument, stamp: mupdf.PDFDocument, lines: readonly LaidOutLine[]) {
  const map = target.newGraftMap();
  try {
    return lines.map((line, index) => {
      const page = stamp.findPage(index);
      const contents = page.get("Contents");
      const bytes = contents.isArray()
        ? Array.from({ length: contents.length }, (_, i) => contents.get(i).readStream().asString()).join(
            "\n",
          )
        : contents.readStream().asString();
      const resources = map.graftObject(page.get("Resources"));
      const dictionary = {
        Type: "XObject",
        Subtype: "Form",
        BBox: [0, 0, line.width, line.height],
        Resources: resources,
      };
      const form = target.addStream(bytes, dictionary);
      const silent = target.addStream(`/Span<</ActualText<FEFF>>>BDC\n${line.plain}\nEMC\n`, dictionary);
      return { form, silent, width: line.width, height: line.height };
    });
  } finally {
    map.destroy();
  }
}
