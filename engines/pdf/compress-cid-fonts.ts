import type * as mupdf from "mupdf";
import { cffName, cidsByGlyph } from "./cff-tables.ts";
import { postScriptName } from "./compress-font-collections.ts";
import { programKind } from "./compress-font-programs.ts";
import { type DrawnGlyphs, glyphsOf } from "./drawn-glyphs.ts";
import { everyObject } from "./every-object.ts";
import { isNamed } from "./object-kinds.ts";
import { copyDictionary } from "./stamp-place.ts";
import { pruneToUnicode } from "./to-unicode-cmap.ts";

/** The width of a CID the /W array leaves out, when the font has no /DW (PDF 32000-1, 9.7.4.1). */
const DEFAULT_WIDTH = 1000;
/** Codes of the Identity CMaps are two-byte CIDs. */
const CODES = 0x10000;

/**
 * Cuts the per-code data of composite fonts with an Identity-H or Identity-V encoding to the CIDs
 * the pages draw, as Ghostscript writes them: the ToUnicode CMap keeps the mappings of those CIDs,
 * the CIDFont's /W array their widths (those equal to /DW go), and the /CIDSet (a bitmap of the
 * CIDs the program holds, which only PDF/A requires) goes unless the file claims PDF/A. A producer
 * writing them for every CID of a 13,597-glyph font left 44 KB of them on a page drawing 4; a
 * TrueType font's /W of 29 KB on a page drawing 3. A code no page draws needs neither a width nor
 * a text: the font program no longer draws it either (compress-font-programs.ts).
 *
 * The CIDs drawn are read back from the glyphs MuPDF drew (see `DrawnGlyphs`): a CIDFontType2 font
 * maps a CID to a glyph through its /CIDToGIDMap (Identity when absent), every CID leading to a drawn
 * glyph is kept; a CIDFontType0 font reports the CID itself. Fonts whose glyph is not reached that
 * way (not embedded, an OpenType CFF program, a TrueType font of a registered ordering, which
 * MuPDF maps through the program's own cmap) and those anything could draw outside the run of the
 * pages are left as they are. The font gets its own ToUnicode stream and CIDFont dictionary, so a
 * stream or dictionary other fonts share keeps what they need. Returns how many fonts were cut.
 */
export function pruneCidFontData(pdf: mupdf.PDFDocument, drawn: DrawnGlyphs, pdfA: boolean): number {
  let pruned = 0;
  for (const { num, object: font } of everyObject(pdf)) {
    try {
      if (!font.isDictionary() || font.get("Subtype").asName() !== "Type0") continue;
      if (drawn.untouchableFonts.has(num)) continue;
      if (pdfA) syncCidSet(pdf, font.get("DescendantFonts", 0, "FontDescriptor"));
      const cids = drawnCids(font, drawn);
      if (cids === null) continue;
      const cidFont = font.get("DescendantFonts", 0);
      const widths = cidFont.get("W").isNull() ? null : prunedWidths(pdf, cidFont, cids);
      if (widths !== null) {
        const copy = copyDictionary(pdf, cidFont);
        copy.put("W", widths);
        const descendants = pdf.newArray();
        descendants.push(pdf.addObject(copy));
        font.put("DescendantFonts", descendants);
      }
      const descriptor = cidFont.get("FontDescriptor");
      if (!pdfA && descriptor.isDictionary() && !descriptor.get("CIDSet").isNull())
        descriptor.delete("CIDSet");
      const toUnicode = font.get("ToUnicode");
      if (toUnicode.isStream()) {
        const text = Buffer.from(toUnicode.readStream().asUint8Array()).toString("latin1");
        const cut = pruneToUnicode(text, cids);
        if (cut !== null && cut.length < text.length)
          font.put("ToUnicode", pdf.addStream(Buffer.from(cut, "latin1"), {}));
      }
      pruned++;
    } catch {
      // A font that does not read cleanly is left as it is.
    }
  }
  return pruned;
}

/**
 * Writes a PDF/A file's /CIDSet again for the CIDs its CID-keyed CFF program now holds: a set
 * naming a CID the program lacks fails PDF/A (ISO 19005-2, 6.2.11.4.2: it identifies the CIDs
 * present), and the subsets drop CIDs (compress-font-programs.ts). TrueType subsets keep their
 * glyph count, so every CID their set names is still there.
 */
function syncCidSet(pdf: mupdf.PDFDocument, descriptor: mupdf.PDFObject): void {
  const set = descriptor.isDictionary() ? descriptor.get("CIDSet") : descriptor;
  const program = descriptor.isDictionary() ? descriptor.get("FontFile3") : descriptor;
  if (!set.isStream() || !program.isStream()) return;
  const cids = cidsByGlyph(program.readStream().asUint8Array());
  if (cids === null) return;
  const bits = new Uint8Array((cids.reduce((last, cid) => Math.max(last, cid), 0) >> 3) + 1);
  for (const cid of cids) bits[cid >> 3] = (bits[cid >> 3] ?? 0) | (0x80 >> (cid & 7));
  if (Buffer.from(set.readStream().asUint8Array()).equals(bits)) return;
  descriptor.put("CIDSet", pdf.addStream(bits, {}));
}

/** The CIDs the pages draw with a Type0 font, or null when they cannot be told (see above). */
function drawnCids(font: mupdf.PDFObject, drawn: DrawnGlyphs): Set<number> | null {
  const encoding = font.get("Encoding");
  if (!encoding.isName() || !["Identity-H", "Identity-V"].includes(encoding.asName())) return null;
  const cidFont = font.get("DescendantFonts", 0);
  const descriptor = cidFont.get("FontDescriptor");
  if (!cidFont.isDictionary() || !descriptor.isDictionary()) return null;
  const subtype = cidFont.get("Subtype").asName();
  const program = descriptor.get(subtype === "CIDFontType2" ? "FontFile2" : "FontFile3");
  if (!program.isStream() || (program.isIndirect() && drawn.untouchable.has(program.asIndirect())))
    return null;
  const bytes = program.readStream().asUint8Array();
  const kind = programKind(bytes);
  const names = [descriptor.get("FontName"), cidFont.get("BaseFont")]
    .filter((name) => name.isName())
    .flatMap((name) => [name.asName(), name.asName().replace(/_\d+$/, "")]);
  names.push(kind === "cff" ? cffName(bytes) : safePostScriptName(bytes));
  const glyphs = glyphsOf(names, drawn.used);
  if (glyphs === null) return null;
  const map = cidFont.get("CIDToGIDMap");
  if (subtype === "CIDFontType0") {
    // A CFF program is drawn by CID; a TrueType one labelled CIDFontType0 by glyph id = CID.
    return kind === "opentype" || map.isStream() ? null : glyphs;
  }
  if (subtype !== "CIDFontType2" || kind !== "truetype") return null;
  if (map.isStream()) return cidsThroughMap(map.readStream().asUint8Array(), glyphs);
  const ordering = cidFont.get("CIDSystemInfo", "Ordering");
  const identity = isNamed(map, "Identity") || map.isNull();
  return identity && ordering.isString() && ordering.asString() === "Identity" ? glyphs : null;
}

/**
 * Every CID the map leads to one of `glyphs`; a CID past the map's end is kept when its own number
 * is one of them (as an Identity map would draw it). Null when glyph 0 was drawn and the map does
 * not cover every code (which CIDs led to .notdef cannot be told).
 */
function cidsThroughMap(map: Uint8Array, glyphs: ReadonlySet<number>): Set<number> | null {
  const mapped = Math.floor(map.length / 2);
  if (glyphs.has(0) && mapped < CODES) return null;
  const cids = new Set<number>();
  for (let cid = 0; cid < CODES; cid++) {
    const glyph = cid < mapped ? ((map[2 * cid] ?? 0) << 8) | (map[2 * cid + 1] ?? 0) : cid;
    if (glyphs.has(glyph)) cids.add(cid);
  }
  return cids;
}

function safePostScriptName(bytes: Uint8Array): string {
  try {
    return postScriptName(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
  } catch {
    return "";
  }
}

/**
 * The CIDFont's /W array for `cids` only: each run of consecutive CIDs whose width differs from
 * /DW as `c [w1 w2 …]`; null when /W does not read.
 */
function prunedWidths(
  pdf: mupdf.PDFDocument,
  cidFont: mupdf.PDFObject,
  cids: ReadonlySet<number>,
): mupdf.PDFObject | null {
  const dw = cidFont.get("DW");
  const fallback = dw.isNumber() ? dw.asNumber() : DEFAULT_WIDTH;
  const widths = readWidths(cidFont.get("W"), cids);
  if (widths === null) return null;
  const out = pdf.newArray();
  let run: mupdf.PDFObject | null = null;
  let previous = -2;
  for (const cid of [...cids].sort((a, b) => a - b)) {
    const width = widths.get(cid) ?? fallback;
    if (width === fallback) {
      run = null;
      continue;
    }
    if (run === null || cid !== previous + 1) {
      run = pdf.newArray();
      out.push(cid);
      out.push(run);
    }
    run.push(width);
    previous = cid;
  }
  return out;
}

/** The widths /W gives the CIDs of `cids` (a later entry for a CID wins); null when it does not read. */
function readWidths(w: mupdf.PDFObject, cids: ReadonlySet<number>): Map<number, number> | null {
  const widths = new Map<number, number>();
  if (w.isNull()) return widths;
  if (!w.isArray()) return null;
  for (let at = 0; at < w.length; ) {
    const first = w.get(at);
    const next = w.get(at + 1);
    if (!first.isNumber()) return null;
    if (next.isArray()) {
      for (let i = 0; i < next.length; i++) {
        const cid = first.asNumber() + i;
        if (cids.has(cid) && next.get(i).isNumber()) widths.set(cid, next.get(i).asNumber());
      }
      at += 2;
      continue;
    }
    const width = w.get(at + 2);
    if (!next.isNumber() || !width.isNumber()) return null;
    for (const cid of cids)
      if (cid >= first.asNumber() && cid <= next.asNumber()) widths.set(cid, width.asNumber());
    at += 3;
  }
  return widths;
}
