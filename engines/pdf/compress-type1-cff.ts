import { deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import { readType1Program } from "./compress-type1.ts";
import { addFontNames, type DrawnGlyphs, glyphsOf } from "./drawn-glyphs.ts";
import { everyObject } from "./every-object.ts";
import { copyDictionary } from "./stamp-place.ts";
import { type1ToCff } from "./type1-to-cff.ts";

/**
 * Every one-byte code drawn in a cell of its own (32 to a row), so that an advance width cannot
 * move the codes after it.
 */
const EVERY_CODE = Array.from(
  { length: 256 },
  (_, code) =>
    `BT /F 20 Tf ${10 + (code % 32) * 24} ${300 - Math.floor(code / 32) * 36} Td <${code.toString(16).padStart(2, "0")}> Tj ET`,
).join("\n");

interface Type1Use {
  readonly descriptors: mupdf.PDFObject[];
  readonly fonts: mupdf.PDFObject[];
  readonly names: Set<string>;
}

/**
 * Converts embedded Type 1 programs (/FontFile) to CFF (/FontFile3 /Type1C, type1-to-cff.ts), as
 * Ghostscript does: a pdfTeX paper's subset Nimbus fonts take 55 KB as Type 1 and about 21 KB as
 * CFF. A program is converted when a page draws with it, nothing could draw it outside the run of
 * the pages (see `DrawnGlyphs`), the CFF deflates smaller, and every code 0–255 of every simple
 * font using it draws the same with the CFF program as with the Type 1 one (both drawn on a page
 * and compared pixel by pixel). Returns how many programs were converted.
 */
export function convertType1ToCff(pdf: mupdf.PDFDocument, drawn: DrawnGlyphs): number {
  let converted = 0;
  for (const [num, use] of type1Uses(pdf)) {
    if (drawn.untouchable.has(num) || glyphsOf(use.names, drawn.used) === null || use.fonts.length === 0)
      continue;
    try {
      const stream = pdf.newIndirect(num);
      const font = stream.readStream().asUint8Array();
      const program = readType1Program(
        font,
        stream.get("Length1").asNumber(),
        stream.get("Length2").asNumber(),
      );
      const cff = program === null ? null : type1ToCff(program);
      if (cff === null || deflateSync(cff).length >= deflateSync(font).length) continue;
      const cffStream = pdf.addStream(cff, { Subtype: pdf.newName("Type1C") });
      if (!use.fonts.every((fontDict) => drawsTheSame(pdf, fontDict, cffStream))) continue;
      for (const descriptor of use.descriptors) {
        descriptor.delete("FontFile");
        descriptor.put("FontFile3", cffStream);
      }
      converted++;
    } catch {
      // A program that does not convert stays as it is.
    }
  }
  return converted;
}

/** Per Type 1 program: the descriptors holding it, the simple fonts using those, their names. */
function type1Uses(pdf: mupdf.PDFDocument): Map<number, Type1Use> {
  const uses = new Map<number, Type1Use>();
  const byDescriptor = new Map<number, Type1Use>();
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (!object.isDictionary()) continue;
      const file = object.get("FontFile");
      const name = object.get("FontName");
      if (!file.isIndirect() || !name.isName()) continue;
      const use = uses.get(file.asIndirect()) ?? { descriptors: [], fonts: [], names: new Set<string>() };
      use.descriptors.push(object);
      addFontNames(use.names, name.asName());
      uses.set(file.asIndirect(), use);
      byDescriptor.set(num, use);
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  for (const { object } of everyObject(pdf)) {
    try {
      if (!object.isDictionary()) continue;
      const descriptor = object.get("FontDescriptor");
      if (!descriptor.isIndirect()) continue;
      const use = byDescriptor.get(descriptor.asIndirect());
      if (use === undefined) continue;
      // Only simple Type 1 fonts are checked code by code; a descriptor used otherwise is left alone.
      if (object.get("Subtype").asName() !== "Type1") use.descriptors.length = 0;
      use.fonts.push(object);
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  for (const [num, use] of uses) if (use.descriptors.length === 0) uses.delete(num);
  return uses;
}

/**
 * Whether every code of `font` draws the same (no pixel off by more than a quarter of the grey scale) with its descriptor's
 * program replaced by `cff`.
 */
function drawsTheSame(pdf: mupdf.PDFDocument, font: mupdf.PDFObject, cff: mupdf.PDFObject): boolean {
  const copy = (dictionary: mupdf.PDFObject) => copyDictionary(pdf, dictionary);
  // Both fonts are new objects: MuPDF keeps the fonts it loaded, with the program as it was then
  // (before the Type 1 subsetting).
  const withProgram = (key: "FontFile" | "FontFile3", program: mupdf.PDFObject) => {
    const descriptor = copy(font.get("FontDescriptor"));
    descriptor.delete("FontFile");
    descriptor.put(key, program);
    const fresh = copy(font);
    fresh.put("FontDescriptor", pdf.addObject(descriptor));
    return pdf.addObject(fresh);
  };
  const before = drawCodes(pdf, withProgram("FontFile", font.get("FontDescriptor", "FontFile")));
  const after = drawCodes(pdf, withProgram("FontFile3", cff));
  return (
    before.length === after.length &&
    before.some((value) => value < 128) &&
    before.every((value, index) => Math.abs(value - (after[index] ?? 0)) <= 64)
  );
}

/** Every code 0–255 of `font` drawn on a temporary page, as grey pixels. */
function drawCodes(pdf: mupdf.PDFDocument, font: mupdf.PDFObject): Uint8ClampedArray {
  const resources = pdf.addObject({ Font: { F: font } });
  const pageCount = pdf.countPages();
  pdf.insertPage(-1, pdf.addPage([0, 0, 800, 320], 0, resources, EVERY_CODE));
  try {
    const page = pdf.loadPage(pageCount);
    try {
      return page.toPixmap(mupdf.Matrix.scale(2, 2), mupdf.ColorSpace.DeviceGray, false).getPixels().slice();
    } finally {
      page.destroy();
    }
  } finally {
    pdf.deletePage(pageCount);
  }
}
