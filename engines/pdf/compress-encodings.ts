import * as mupdf from "mupdf";
import { type DrawnGlyphs, glyphsOf } from "./drawn-glyphs.ts";
import { everyObject } from "./every-object.ts";
import { copyDictionary } from "./stamp-place.ts";

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
  const uses = encodingUses(pdf).filter(
    (use) => !use.pinned && use.fonts.length > 0 && use.fonts.every((font) => checkable(font, drawn)),
  );
  const fonts = uses.flatMap((use) => use.fonts);
  const shown = codesDrawingGlyphs(pdf, fonts);
  if (shown === null) return 0;
  let dropped = 0;
  for (const use of uses) {
    try {
      const kept = new Set<number>();
      for (const font of use.fonts) for (const code of shown.get(font) ?? []) kept.add(code);
      dropped += keepDifferences(pdf, use.encoding, kept);
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
  for (const { object: holder } of everyObject(pdf)) {
    try {
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
 * Whether what the font's codes draw can tell which were never shown: nothing outside the run of
 * the pages may draw it, the run drew with it, and never .notdef (a code without a glyph shown).
 */
function checkable(font: mupdf.PDFObject, drawn: DrawnGlyphs): boolean {
  if (font.isIndirect() && drawn.untouchableFonts.has(font.asIndirect())) return false;
  const name = font.get("FontDescriptor", "FontName");
  if (!name.isName()) return false;
  // MuPDF names the font without a trailing "_167"-like suffix (a TeX slant or extend tag).
  const glyphs = glyphsOf([name.asName(), name.asName().replace(/_\d+$/, "")], drawn.used);
  return glyphs !== null && !glyphs.has(0);
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
 * Per font, the codes of its /Differences that draw a glyph other than .notdef with the font as it
 * is now: all fonts on one temporary page (fresh copies of their dictionaries: MuPDF keeps the
 * fonts it loaded, with the programs as they were before the subsetting). Null when the glyphs
 * drawn do not line up with the codes shown, or the run fails.
 */
function codesDrawingGlyphs(
  pdf: mupdf.PDFDocument,
  fonts: readonly mupdf.PDFObject[],
): Map<mupdf.PDFObject, number[]> | null {
  if (fonts.length === 0) return null;
  const resources = pdf.newDictionary();
  const lines: string[] = [];
  const codes = fonts.map((font, index) => {
    const fresh = copyDictionary(pdf, font);
    fresh.put("FontDescriptor", pdf.addObject(copyDictionary(pdf, font.get("FontDescriptor"))));
    resources.put(`F${index}`, pdf.addObject(fresh));
    const shown = differenceCodes(font.get("Encoding", "Differences"));
    const hex = shown.map((code) => code.toString(16).padStart(2, "0")).join("");
    lines.push(`BT /F${index} 10 Tf 0 50 Td <${hex}> Tj ET`);
    return shown;
  });
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
  try {
    pdf.insertPage(
      -1,
      pdf.addPage([0, 0, 100, 100], 0, pdf.addObject({ Font: resources }), lines.join("\n")),
    );
    const page = pdf.loadPage(pageCount);
    try {
      page.run(device, mupdf.Matrix.identity);
    } finally {
      page.destroy();
    }
  } catch {
    return null;
  } finally {
    if (pdf.countPages() > pageCount) pdf.deletePage(pageCount);
    device.close();
    device.destroy();
  }
  if (glyphs.length !== codes.reduce((sum, shown) => sum + shown.length, 0)) return null;
  const drawing = new Map<mupdf.PDFObject, number[]>();
  let at = 0;
  for (const [index, font] of fonts.entries()) {
    const shown = codes[index] ?? [];
    drawing.set(
      font,
      shown.filter((_, offset) => glyphs[at + offset] !== 0),
    );
    at += shown.length;
  }
  return drawing;
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
