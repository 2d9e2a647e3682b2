import { deflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";

/** TrueType table tags. */
const HEAD = 0x68656164; // "head"
const LOCA = 0x6c6f6361; // "loca"
const MAXP = 0x6d617870; // "maxp"

/**
 * Empties the entries of CID-to-glyph maps (/CIDToGIDMap streams of CID TrueType fonts, two bytes
 * per CID) that point at glyphs the subset font no longer draws: after subsetting, a map written
 * for the whole font (TCPDF writes 64K entries, 73 KB compressed) still names every glyph, and
 * only the entries of used glyphs matter. Every entry to an empty glyph is pointed at one empty
 * glyph, so the map compresses to almost nothing; such a CID draws nothing either way, and its
 * width and text come from the PDF's /W and /ToUnicode, which stay. Returns the maps rewritten.
 */
export function pruneGlyphMaps(pdf: mupdf.PDFDocument): number {
  let pruned = 0;
  for (const { object: font } of everyObject(pdf)) {
    try {
      if (!font.isDictionary() || font.get("Subtype").asName() !== "CIDFontType2") continue;
      const map = font.get("CIDToGIDMap");
      const file = font.get("FontDescriptor", "FontFile2");
      if (!map.isStream() || !file.isStream()) continue;
      const glyphs = glyphOutlines(file.readStream().asUint8Array());
      if (glyphs === null) continue;
      // Entries to empty glyphs all point at the first empty one (glyph 0, .notdef, draws a box).
      const blank = glyphs.blank();
      if (blank === undefined) continue;
      const entries = map.readStream().asUint8Array().slice();
      let changed = false;
      for (let at = 0; at + 1 < entries.length; at += 2) {
        const glyph = ((entries[at] ?? 0) << 8) | (entries[at + 1] ?? 0);
        if (glyph === 0 || glyph === blank || glyphs.drawn(glyph)) continue;
        entries[at] = blank >> 8;
        entries[at + 1] = blank & 0xff;
        changed = true;
      }
      if (!changed) continue;
      map.writeRawStream(deflateSync(entries, { level: 9 }));
      map.put("Filter", pdf.newName("FlateDecode"));
      map.delete("DecodeParms");
      pruned++;
    } catch {
      // A font or map that does not read cleanly is left as it is.
    }
  }
  return pruned;
}

/**
 * Which glyphs of the TrueType font have an outline (from its `loca` table), and the first glyph
 * after .notdef without one; null when the tables do not read.
 */
function glyphOutlines(
  font: Uint8Array,
): { drawn: (glyph: number) => boolean; blank: () => number | undefined } | null {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  if (font.length < 12) return null;
  const tables = new Map<number, number>();
  for (let index = 0; index < view.getUint16(4); index++) {
    const record = 12 + 16 * index;
    if (record + 16 > font.length) return null;
    tables.set(view.getUint32(record), view.getUint32(record + 8));
  }
  const [head, loca, maxp] = [tables.get(HEAD), tables.get(LOCA), tables.get(MAXP)];
  if (head === undefined || loca === undefined || maxp === undefined) return null;
  const longOffsets = view.getInt16(head + 50) === 1;
  const glyphs = view.getUint16(maxp + 4);
  const offset = (glyph: number) =>
    longOffsets ? view.getUint32(loca + 4 * glyph) : view.getUint16(loca + 2 * glyph) * 2;
  if (loca + (glyphs + 1) * (longOffsets ? 4 : 2) > font.length) return null;
  const drawn = (glyph: number) => glyph < glyphs && offset(glyph + 1) > offset(glyph);
  const blank = () => {
    for (let glyph = 1; glyph < glyphs; glyph++) if (!drawn(glyph)) return glyph;
    return undefined;
  };
  return { drawn, blank };
}
