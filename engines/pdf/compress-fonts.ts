import type * as mupdf from "mupdf";
import { fontsIn } from "./drawn-glyphs.ts";
import { walkFields } from "./graft-destinations.ts";
import { withResourceCyclesCut } from "./resource-cycles.ts";
import { copyDictionary } from "./stamp-place.ts";
import { unseenBySubsetter } from "./unseen-drawings.ts";

const FONT_FILE_KEYS = ["FontFile", "FontFile2", "FontFile3"] as const;

/**
 * Subsets the embedded fonts to the glyphs the pages use (MuPDF's `subsetFonts`, which took one
 * page from 2.3 MB to 79 KB). A viewer draws newly typed field values with the font a field's
 * default appearance (/DA) names from the form's resources (/DR), so those fonts must keep every
 * glyph a user could type:
 * - a simple font (TrueType or Type 1, one byte a character) can only ever show the 256 codes of
 *   its encoding, so it is subset to exactly those: a temporary page shows all 256 codes in it while
 *   the subsetter runs (an embedded full Arial of 207 KB kept whole made a one-page tax form 0.88 of
 *   its size; subset to its WinAnsi codes, 0.40, every code drawing the same glyph as before);
 * - any other font (composite fonts reach every glyph of the program), and every form font of an
 *   XFA form (XFA names fonts in its own XML), stays whole: its font file is detached from the
 *   subsetter's view for the duration.
 * A form without fields loses the fonts of its resources that no default appearance names.
 * Resource loops (a form drawing itself through others) are cut open while the subsetter runs: it
 * follows them until MuPDF traps.
 */
export function subsetFonts(pdf: mupdf.PDFDocument): void {
  withResourceCyclesCut(pdf, () => {
    // The subsetter counts the glyphs the pages and forms select with `Tf` and the current
    // appearances of shown annotations draw: the fonts anything else draws with stay whole (a
    // glyph only such a drawing used went missing), here and in the cuts by the glyphs drawn.
    const detached = unseenBySubsetter(pdf)
      .flatMap((resources) => fontsIn(resources))
      .flatMap(detachPrograms);
    try {
      subsetKeepingFormFonts(pdf);
    } finally {
      reattach(detached);
    }
  });
}

function subsetKeepingFormFonts(pdf: mupdf.PDFDocument): void {
  const form = pdf.getTrailer().get("Root", "AcroForm");
  const formFonts = form.isDictionary() ? form.get("DR", "Font") : null;
  if (formFonts === null || !formFonts.isDictionary()) {
    pdf.subsetFonts();
    return;
  }
  const xfa = !form.get("XFA").isNull();
  const named = xfa ? null : fontsNamedByFields(form);
  const everyCode: string[] = [];
  const detached: Detached[] = [];
  const unused: string[] = [];
  formFonts.forEach((font, name) => {
    if (named !== null && !named.has(String(name))) {
      if (!hasFields(form) && isEmbedded(font)) unused.push(String(name));
      return;
    }
    if (!xfa && isSimpleEmbeddedFont(font)) {
      everyCode.push(String(name));
      return;
    }
    detached.push(...detachPrograms(font));
  });
  // A form without fields has nothing to type into: a font of its resources that no default
  // appearance names is drawn by nothing, yet kept a whole font program in the file (a full Arial
  // of 206 KB in a one-page PDF whose page uses its own subset: 0.93 of the input → 0.08).
  // The form gets resources of its own without them: its dictionaries may be a page's too (Scribus
  // gives the page tree and the form one), and the page still draws with those fonts.
  if (unused.length > 0) {
    const resources = copyDictionary(pdf, form.get("DR"));
    const fonts = copyDictionary(pdf, formFonts);
    for (const name of unused) fonts.delete(name);
    resources.put("Font", fonts);
    form.put("DR", resources);
  }
  const pageCount = pdf.countPages();
  try {
    if (everyCode.length > 0) pdf.insertPage(-1, everyCodePage(pdf, formFonts, everyCode));
    pdf.subsetFonts();
  } finally {
    if (pdf.countPages() > pageCount) pdf.deletePage(pageCount);
    reattach(detached);
  }
}

/** A font program taken out of its descriptor while MuPDF's subsetter runs. */
interface Detached {
  readonly descriptor: mupdf.PDFObject;
  readonly key: string;
  readonly file: mupdf.PDFObject;
}

/** Takes the font's programs out of its descriptors (the subsetter leaves such a font whole). */
function detachPrograms(font: mupdf.PDFObject): Detached[] {
  const detached: Detached[] = [];
  for (const descriptor of [font.get("FontDescriptor"), font.get("DescendantFonts", 0, "FontDescriptor")]) {
    if (!descriptor.isDictionary()) continue;
    for (const key of FONT_FILE_KEYS) {
      const file = descriptor.get(key);
      if (file.isNull()) continue;
      detached.push({ descriptor, key, file });
      descriptor.delete(key);
    }
  }
  return detached;
}

function reattach(detached: readonly Detached[]): void {
  for (const { descriptor, key, file } of detached) descriptor.put(key, file);
}

/** Whether the form's field tree holds any field. */
function hasFields(form: mupdf.PDFObject): boolean {
  const fields = form.get("Fields");
  return fields.isArray() && fields.length > 0;
}

/** A font, simple or composite, whose program is in the file. */
function isEmbedded(font: mupdf.PDFObject): boolean {
  return [font.get("FontDescriptor"), font.get("DescendantFonts", 0, "FontDescriptor")].some(
    (descriptor) => descriptor.isDictionary() && FONT_FILE_KEYS.some((key) => !descriptor.get(key).isNull()),
  );
}

/** A TrueType or Type 1 font (not composite, not Type 3) whose program is in the file. */
function isSimpleEmbeddedFont(font: mupdf.PDFObject): boolean {
  const subtype = font.get("Subtype");
  if (!subtype.isName() || !["TrueType", "Type1", "MMType1"].includes(subtype.asName())) return false;
  const descriptor = font.get("FontDescriptor");
  return descriptor.isDictionary() && FONT_FILE_KEYS.some((key) => !descriptor.get(key).isNull());
}

/** Every one-byte code, as a PDF hex string. */
const ALL_CODES = `<${Array.from({ length: 256 }, (_, code) => code.toString(16).padStart(2, "0")).join("")}>`;

/**
 * A page (not yet in the page tree) showing every code in each of the named form fonts, under
 * resource names of its own (a form's names may need escaping in a content stream).
 */
function everyCodePage(pdf: mupdf.PDFDocument, formFonts: mupdf.PDFObject, names: readonly string[]) {
  const fonts = pdf.newDictionary();
  for (const [index, name] of names.entries()) fonts.put(`F${index}`, formFonts.get(name));
  const resources = pdf.newDictionary();
  resources.put("Font", fonts);
  const content = names.map((_, index) => `BT /F${index} 10 Tf ${ALL_CODES} Tj ET`).join("\n");
  return pdf.addPage([0, 0, 612, 792], 0, resources, content);
}

/** Font resource names in the default appearances of the form and of every field and widget. */
function fontsNamedByFields(form: mupdf.PDFObject): Set<string> {
  const names = new Set<string>();
  const addFrom = (holder: mupdf.PDFObject) => {
    const appearance = holder.get("DA");
    if (!appearance.isString()) return;
    for (const match of appearance.asString().matchAll(/\/([^\s/<>[\]()]+)\s+[-+\d.]+\s+Tf/g)) {
      if (match[1] !== undefined) names.add(match[1]);
    }
  };
  addFrom(form);
  const fields = form.get("Fields");
  if (fields.isArray()) walkFields(fields, addFrom);
  return names;
}
