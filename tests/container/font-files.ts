/**
 * Fonts for PDFs built in code: Liberation Sans (pdfjs-dist's standard fonts), damaged copies, and
 * a Type 3 font of one glyph.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type * as mupdf from "mupdf";

export function liberationSans(): Uint8Array {
  const path = fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf"));
  return new Uint8Array(readFileSync(path));
}

/**
 * A copy of a TrueType program whose table directory gives `loca` one entry less than the glyph
 * count needs (its last glyph's end is missing), as some producers write it: viewers draw the
 * other glyphs, MuPDF's subsetter refuses the font.
 */
export function withShortLoca(font: Uint8Array): Uint8Array {
  const copy = font.slice();
  const view = new DataView(copy.buffer);
  const record = Array.from({ length: view.getUint16(4) }, (_, i) => 12 + 16 * i).find(
    (at) => String.fromCharCode(...copy.subarray(at, at + 4)) === "loca",
  );
  if (record === undefined) throw new Error("no loca table");
  view.setUint32(record + 12, view.getUint32(record + 12) - 4);
  return copy;
}

/**
 * A Type 3 font whose one glyph, code 97 ("a"), is drawn by `procedure` (after `1000 0 d0`), in a
 * 1000-unit square; with `resources` of its own when given (else it uses those where it is drawn).
 */
export function oneGlyphType3(
  doc: mupdf.PDFDocument,
  procedure: string,
  resources?: Record<string, unknown>,
): mupdf.PDFObject {
  return doc.addObject({
    Type: doc.newName("Font"),
    Subtype: doc.newName("Type3"),
    FontBBox: [0, 0, 1000, 1000],
    FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
    CharProcs: { a: doc.addStream(new TextEncoder().encode(`1000 0 d0 ${procedure}`), {}) },
    Encoding: { Type: doc.newName("Encoding"), Differences: [97, doc.newName("a")] },
    FirstChar: 97,
    LastChar: 97,
    Widths: [1000],
    ...(resources === undefined ? {} : { Resources: resources }),
  });
}
