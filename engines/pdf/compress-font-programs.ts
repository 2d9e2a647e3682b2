import { deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import { cffGlyphCount, cffName, cidsByGlyph } from "./cff-tables.ts";
import { postScriptName } from "./compress-font-collections.ts";
import { type DrawnGlyphs, fontFiles, glyphsOf } from "./drawn-glyphs.ts";
import { type HarfBuzz, subsetSfnt } from "./harfbuzz-subset.ts";
import { pruneCmap } from "./sfnt-cmap.ts";
import { readTables, writeSfnt } from "./sfnt-tables.ts";

/** Side of the square each glyph is drawn in when the subset is checked against the original. */
const CHECK_CELL = 32;
/** A font drawing more glyphs than this is not checked glyph by glyph: it is left as it is. */
const MAX_CHECKED_GLYPHS = 4096;

/**
 * Cuts TrueType (/FontFile2) and CFF (/FontFile3: bare Type1C or CIDFontType0C, or OpenType) font
 * programs to the glyphs the pages draw with HarfBuzz's subsetter (hb-subset), which reads fonts
 * MuPDF's subsetter refuses (a truncated `loca`, a cmap of format 2, a CFF index it reads as out
 * of bounds) and, unlike it, cuts CFF subroutines and simple Type1C fonts. Glyph ids stay the same
 * (the content streams and CIDToGIDMap name glyphs by id; a CID-keyed CFF program keeps its CIDs,
 * see `subsetCff`), a TrueType font keeps its own `cmap` for the glyphs kept (simple fonts pick
 * glyphs through it) and glyph names stay (CFF charset, `post`). The subset
 * replaces the program only when every glyph drawn renders pixel for pixel as before, every
 * Unicode value keeps its glyph, and it deflates smaller than the program it replaces. Fonts
 * anything could draw outside the run of the pages (see `DrawnGlyphs`) are left whole. Returns how
 * many programs were replaced.
 */
export function subsetFontPrograms(pdf: mupdf.PDFDocument, drawn: DrawnGlyphs, harfBuzz: HarfBuzz): number {
  let replaced = 0;
  for (const key of ["FontFile2", "FontFile3"] as const) {
    for (const [num, names] of fontFiles(pdf, key)) {
      if (drawn.untouchable.has(num)) continue;
      try {
        const stream = pdf.newIndirect(num);
        const font = stream.readStream().asUint8Array();
        // By the bytes, not the /Subtype: a TrueType program labelled CIDFontType0C is drawn as TrueType.
        const bareCff = programKind(font) === "cff";
        // MuPDF names an embedded font by its program's own name when it has one.
        const glyphs = glyphsOf([...names, programName(font, bareCff)], drawn.used);
        if (glyphs === null || glyphs.size > MAX_CHECKED_GLYPHS) continue;
        // Without hints first (as Ghostscript writes them: a hinted Tahoma subset of 5.6 KB is 1 KB
        // without), with them when that one does not draw the same (FreeType runs a tricky font's
        // instructions to build its glyphs).
        let cut: Uint8Array | null = null;
        for (const hinting of [false, true]) {
          const candidate = bareCff
            ? subsetCff(harfBuzz, font, glyphs, hinting)
            : subsetTrueType(harfBuzz, font, glyphs, hinting);
          if (candidate === null || deflateSync(candidate).length >= deflateSync(font).length) continue;
          if (!drawsTheSame(font, candidate, glyphs)) continue;
          cut = candidate;
          break;
        }
        if (cut === null) continue;
        stream.writeStream(cut);
        if (key === "FontFile2") stream.put("Length1", cut.length);
        replaced++;
      } catch {
        // A program HarfBuzz or MuPDF cannot read is left as it is.
      }
    }
  }
  return replaced;
}

/**
 * A TrueType or OpenType program cut to `glyphs`, with its original `cmap` cut to the codes of the
 * glyphs kept (HarfBuzz keeps only Unicode subtables, and drops formats it does not read; a simple
 * font picks glyphs through the (3,0) or (1,0) subtables), or whole when it does not read.
 */
function subsetTrueType(
  harfBuzz: HarfBuzz,
  font: Uint8Array,
  glyphs: Set<number>,
  hinting: boolean,
): Uint8Array | null {
  const original = readTables(font);
  const cut = subsetSfnt(harfBuzz, font, glyphs, { hinting, retainGids: true });
  const tables = cut === null ? null : readTables(cut);
  if (original === null || tables === null) return null;
  const cmap = original.get("cmap");
  if (cmap === undefined) tables.delete("cmap");
  else tables.set("cmap", pruneCmap(cmap, (glyph) => glyphs.has(glyph)) ?? cmap);
  return writeSfnt(tables);
}

/**
 * A bare CFF program cut to `glyphs`: wrapped in an OpenType file for HarfBuzz, then unwrapped. A
 * name-keyed program keeps its glyph ids (a CIDFontType0 font draws CID n as glyph n). A CID-keyed
 * one is drawn by CID (FreeType finds a CID's glyph through the charset, and MuPDF reports that
 * CID as the glyph drawn): its subset numbers the glyphs kept densely, their CIDs kept in the
 * charset, as Ghostscript writes it (a 13,597-glyph font of which a page draws 4 kept 9,139 empty
 * glyph slots with their ids: 28 KB, against 752 bytes).
 */
function subsetCff(
  harfBuzz: HarfBuzz,
  font: Uint8Array,
  glyphs: Set<number>,
  hinting: boolean,
): Uint8Array | null {
  const count = cffGlyphCount(font);
  if (count === null) return null;
  const cids = cidsByGlyph(font);
  let ids = glyphs;
  if (cids !== null) {
    const glyphOfCid = new Map(cids.map((cid, glyph) => [cid, glyph]));
    ids = new Set([...glyphs].flatMap((cid) => glyphOfCid.get(cid) ?? []));
  }
  const maxp = new Uint8Array(6);
  new DataView(maxp.buffer).setUint32(0, 0x00005000);
  new DataView(maxp.buffer).setUint16(4, count);
  const wrapped = writeSfnt(
    new Map([
      ["CFF ", font],
      ["maxp", maxp],
    ]),
  );
  const cut = subsetSfnt(harfBuzz, wrapped, ids, { hinting, retainGids: cids === null });
  return (cut === null ? null : readTables(cut)?.get("CFF ")) ?? null;
}

/** What a font program is by its first four bytes: a TrueType or OpenType (CFF) file, or a bare CFF one. */
export function programKind(font: Uint8Array): "cff" | "truetype" | "opentype" {
  if (font.length < 4) return "cff";
  const tag = new DataView(font.buffer, font.byteOffset, 4).getUint32(0);
  if (tag === 0x4f54544f) return "opentype"; // "OTTO"
  return [0x00010000, 0x74727565].includes(tag) ? "truetype" : "cff"; // 1.0, "true"
}

/** The program's own font name (sfnt name id 6, or the first of a CFF's Name INDEX), or "". */
export function programName(font: Uint8Array, bareCff: boolean): string {
  if (bareCff) return cffName(font);
  try {
    return postScriptName(new DataView(font.buffer, font.byteOffset, font.byteLength), 0);
  } catch {
    return "";
  }
}

/**
 * Whether `cut` draws every glyph of `glyphs` exactly as `font` does (rendered in a grid and
 * compared pixel for pixel) and maps every Unicode value of the Basic Multilingual Plane that
 * reaches one of them to the same glyph (through the cut `cmap` of a TrueType font; FreeType
 * derives that map from glyph names in a CFF font: a simple font picks its glyphs by name).
 */
function drawsTheSame(font: Uint8Array, cut: Uint8Array, glyphs: Set<number>): boolean {
  const before = new mupdf.Font("before", font);
  const after = new mupdf.Font("after", cut);
  try {
    for (let unicode = 1; unicode < 0x10000; unicode++) {
      const glyph = before.encodeCharacter(unicode);
      if (glyph > 0 && glyphs.has(glyph) && after.encodeCharacter(unicode) !== glyph) return false;
    }
    const [a, b] = [render(before, glyphs), render(after, glyphs)];
    return a.length === b.length && a.every((value, index) => value === b[index]);
  } finally {
    before.destroy();
    after.destroy();
  }
}

/** The glyphs drawn in a grid of cells, as grey pixels. */
function render(font: mupdf.Font, glyphs: Set<number>): Uint8ClampedArray {
  const ids = [...glyphs].sort((a, b) => a - b);
  const columns = Math.ceil(Math.sqrt(ids.length));
  const rows = Math.ceil(ids.length / columns);
  const pixmap = new mupdf.Pixmap(
    mupdf.ColorSpace.DeviceGray,
    [0, 0, columns * CHECK_CELL, rows * CHECK_CELL],
    false,
  );
  pixmap.clear(255);
  const text = new mupdf.Text();
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
  try {
    for (const [index, glyph] of ids.entries()) {
      const x = (index % columns) * CHECK_CELL + CHECK_CELL / 4;
      const y = Math.floor(index / columns) * CHECK_CELL + (CHECK_CELL * 3) / 4;
      text.showGlyph(font, [CHECK_CELL / 2, 0, 0, -CHECK_CELL / 2, x, y], glyph, 0);
    }
    device.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1);
    device.close();
    return pixmap.getPixels().slice();
  } finally {
    device.destroy();
    text.destroy();
    pixmap.destroy();
  }
}
