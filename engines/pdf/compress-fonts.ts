import type * as mupdf from "mupdf";

const FONT_FILE_KEYS = ["FontFile", "FontFile2", "FontFile3"] as const;
/** How deep the field tree is followed (guards against cycles in damaged files). */
const MAX_FIELD_DEPTH = 32;

/**
 * Subsets the embedded fonts to the glyphs the pages use (MuPDF's `subsetFonts`, which took one
 * page from 2.3 MB to 79 KB). Fonts a form fills fields with stay whole: a viewer draws newly typed
 * values with the font a field's default appearance (/DA) names from the form's resources (/DR),
 * so it needs every glyph; with XFA every form font stays whole (XFA names fonts in its own XML).
 * They are hidden from the subsetter by detaching their font files for the duration.
 */
export function subsetFonts(pdf: mupdf.PDFDocument): void {
  const form = pdf.getTrailer().get("Root", "AcroForm");
  if (!form.isDictionary()) {
    pdf.subsetFonts();
    return;
  }
  const formFonts = form.get("DR", "Font");
  const keep = form.get("XFA").isNull() ? fontsNamedByFields(form) : null;
  const detached: { descriptor: mupdf.PDFObject; key: string; file: mupdf.PDFObject }[] = [];
  if (formFonts.isDictionary()) {
    formFonts.forEach((font, name) => {
      if (keep !== null && !keep.has(String(name))) return;
      for (const descriptor of [
        font.get("FontDescriptor"),
        font.get("DescendantFonts", 0, "FontDescriptor"),
      ]) {
        if (!descriptor.isDictionary()) continue;
        for (const key of FONT_FILE_KEYS) {
          const file = descriptor.get(key);
          if (file.isNull()) continue;
          detached.push({ descriptor, key, file });
          descriptor.delete(key);
        }
      }
    });
  }
  try {
    pdf.subsetFonts();
  } finally {
    for (const { descriptor, key, file } of detached) descriptor.put(key, file);
  }
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
  const walk = (fields: mupdf.PDFObject, depth: number) => {
    if (!fields.isArray() || depth > MAX_FIELD_DEPTH) return;
    for (let i = 0; i < fields.length; i++) {
      const field = fields.get(i);
      addFrom(field);
      walk(field.get("Kids"), depth + 1);
    }
  };
  addFrom(form);
  walk(form.get("Fields"), 0);
  return names;
}
