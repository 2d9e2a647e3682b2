/** Font programs for PDFs built in code: Liberation Sans (pdfjs-dist's standard fonts), and damaged copies. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
