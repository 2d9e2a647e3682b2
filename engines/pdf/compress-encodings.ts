import * as mupdf from "mupdf";
import { copyDictionary } from "./compress-type1-cff.ts";
import { type DrawnGlyphs, glyphsOf } from "./drawn-glyphs.ts";

/** Simple font types whose codes reach glyphs by name only (the /Differences names). */
const NAMED_GLYPH_FONTS = new Set(["Type1", "MMType1"]);

interface EncodingUse {
  readonly encoding: mupdf.PDFObject;
  readonly fonts: mupdf.PDFObject[];
  /** Some holder of the encoding is not a font whose codes can be checked: it stays whole. */
  pinned: boolean;
}

/**
 * Drops the /Differences entries of embedded Type 1 fonts for codes the subset program no longer
 * has a glyph for. pdfTeX and dvipdfmx write the whole encoding vector (often 128–256 glyph names,
 * 0.5 KB deflated a font) for every subset font; Ghostscript keeps the drawn codes only. A code
 * whose name the subset program lacks draws .notdef (glyph 0): when the run of the pages drew no
 * .notdef with that font, no page shows such a code, so the entry changes nothing drawn and no
 * extracted text. Fonts that anything outside the run could draw (form and annotation fonts) and
 * encodings shared with anything else stay whole. An encoding shared by several fonts keeps every
 * code some font still draws. Returns the entries dropped.
 */
export function pruneUndrawnDifferences(pdf: mupdf.PDFDocument, drawn: DrawnGlyphs): number {
  let dropped = 0;
  for (const use of encodingUses(pdf)) {
    if (use.pinned || use.fonts.length === 0) continue;
    try {
      const kept = new Set<number>();
      let checkable = true;
      for (const font of use.fonts) {
        const codes = drawableCodes(pdf, font, drawn);
        if (codes === null) {
          checkable = false;
          break;
        }
        for (const code of codes) kept.add(code);
      }
      if (checkable) dropped += keepDifferences(pdf, use.encoding, kept);
    } catch {
      // An encoding that does not read stays as it is.
    }
  }
  return dropped;
}

/** Every encoding dictionary with /Differences, with the fonts using it. */
function encodingUses(pdf: mupdf.PDFDocument): EncodingUse[] {
  const byObject = new Map<number, EncodingUse>();
  const uses: EncodingUse[] = [];
  const count = pdf.countObjects();
  for (let num = 1; num < count; num++) {
    try {
      const holder = pdf.newIndirect(num);
      if (!holder.isDictionary()) continue;
      const encoding = holder.get("Encoding");
      if (!encoding.isDictionary() || !encoding.get("Differences").isArray()) {
        // The form's resources name encodings by key (/DR /Encoding << /PDFDocEncoding n 0 R >>).
        if (encoding.isDictionary()) pinEvery(encoding, byObject);
        continue;
      }
      let use: EncodingUse | undefined;
      if (encoding.isIndirect()) {
        use = byObject.get(encoding.asIndirect());
        if (use === undefined) {
          use = { encoding, fonts: [], pinned: false };
          byObject.set(encoding.asIndirect(), use);
          uses.push(use);
        }
      } else {
        use = { encoding, fonts: [], pinned: false };
        uses.push(use);
      }
      if (isNamedGlyphFont(holder)) use.fonts.push(holder);
      else use.pinned = true;
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  const formEncodings = pdf.getTrailer().get("Root", "AcroForm", "DR", "Encoding");
  if (formEncodings.isDictionary()) pinEvery(formEncodings, byObject);
  return uses;
}

/** Pins the encodings a dictionary of encodings names (creating their entries when first seen). */
function pinEvery(encodings: mupdf.PDFObject, byObject: Map<number, EncodingUse>) {
  encodings.forEach((value) => {
    if (!value.isIndirect()) return;
    const use = byObject.get(value.asIndirect());
    if (use !== undefined) use.pinned = true;
    else byObject.set(value.asIndirect(), { encoding: value, fonts: [], pinned: true });
  });
}

/** A simple Type 1 font with its program embedded (/FontFile or /FontFile3). */
function isNamedGlyphFont(font: mupdf.PDFObject): boolean {
  const subtype = font.get("Subtype");
  if (!subtype.isName() || !NAMED_GLYPH_FONTS.has(subtype.asName())) return false;
  const descriptor = font.get("FontDescriptor");
  return (
    descriptor.isDictionary() &&
    (descriptor.get("FontFile").isStream() || descriptor.get("FontFile3").isStream())
  );
}

/**
 * The codes of the font's /Differences that still draw a glyph of its program; null when that
 * cannot be known: the font may be drawn outside the run of the pages, the run drew none of it, or
 * it drew .notdef with it (a code without a glyph is shown somewhere).
 */
function drawableCodes(
  pdf: mupdf.PDFDocument,
  font: mupdf.PDFObject,
  drawn: DrawnGlyphs,
): Set<number> | null {
  if (font.isIndirect() && drawn.untouchableFonts.has(font.asIndirect())) return null;
  const name = font.get("FontDescriptor", "FontName");
  if (!name.isName()) return null;
  // MuPDF names the font without a trailing "_167"-like suffix (a TeX slant or extend tag).
  const glyphs = glyphsOf([name.asName(), name.asName().replace(/_\d+$/, "")], drawn.used);
  if (glyphs === null || glyphs.has(0)) return null;
  const codes = differenceCodes(font.get("Encoding", "Differences"));
  const shown = glyphsShown(pdf, font, codes);
  if (shown.length !== codes.length) return null;
  return new Set(codes.filter((_, index) => shown[index] !== 0));
}

/** The codes a /Differences array names, in order. */
function differenceCodes(differences: mupdf.PDFObject): number[] {
  const codes: number[] = [];
  let code = -1;
  for (let i = 0; i < differences.length; i++) {
    const item = differences.get(i);
    if (item.isNumber()) code = item.asNumber();
    else if (item.isName() && code >= 0 && code < 256) codes.push(code++);
  }
  return codes;
}

/**
 * The glyph each code draws with the font as it is now (a fresh copy of its dictionaries: MuPDF
 * keeps the fonts it loaded, with the program as it was before the subsetting), one by one.
 */
function glyphsShown(pdf: mupdf.PDFDocument, font: mupdf.PDFObject, codes: readonly number[]): number[] {
  const fresh = copyDictionary(pdf, font);
  fresh.put("FontDescriptor", pdf.addObject(copyDictionary(pdf, font.get("FontDescriptor"))));
  const resources = pdf.addObject({ Font: { F: pdf.addObject(fresh) } });
  const hex = codes.map((code) => code.toString(16).padStart(2, "0")).join("");
  const glyphs: number[] = [];
  const record = (text: mupdf.Text) => {
    text.walk({
      showGlyph(_font, _matrix, glyph) {
        glyphs.push(glyph);
      },
    });
  };
  const device = new mupdf.Device({ fillText: record });
  const pageCount = pdf.countPages();
  pdf.insertPage(-1, pdf.addPage([0, 0, 100, 100], 0, resources, `BT /F 10 Tf 0 50 Td <${hex}> Tj ET`));
  try {
    const page = pdf.loadPage(pageCount);
    try {
      page.run(device, mupdf.Matrix.identity);
    } finally {
      page.destroy();
    }
  } finally {
    pdf.deletePage(pageCount);
    device.close();
    device.destroy();
  }
  return glyphs;
}

/** Rewrites the encoding's /Differences with only the codes in `kept`; returns the entries dropped. */
function keepDifferences(
  pdf: mupdf.PDFDocument,
  encoding: mupdf.PDFObject,
  kept: ReadonlySet<number>,
): number {
  const differences = encoding.get("Differences");
  const entries: [number, mupdf.PDFObject][] = [];
  let code = -1;
  for (let i = 0; i < differences.length; i++) {
    const item = differences.get(i);
    if (item.isNumber()) code = item.asNumber();
    else if (item.isName() && code >= 0) entries.push([code++, item]);
  }
  const remaining = entries.filter(([entryCode]) => kept.has(entryCode));
  if (remaining.length === entries.length) return 0;
  const rewritten = pdf.newArray();
  let next = -1;
  for (const [entryCode, name] of remaining) {
    if (entryCode !== next) rewritten.push(pdf.newInteger(entryCode));
    rewritten.push(name);
    next = entryCode + 1;
  }
  encoding.put("Differences", rewritten);
  return entries.length - remaining.length;
}
