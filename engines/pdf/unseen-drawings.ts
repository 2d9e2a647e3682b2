import type * as mupdf from "mupdf";
import { namesIn } from "./compress-resources.ts";
import { everyObject } from "./every-object.ts";
import { isNamed, isNumbered, isType3Font } from "./object-kinds.ts";
import { annotationsOf } from "./page-annotations.ts";

/**
 * Resources whose fonts MuPDF's subsetter does not see drawing (its content walk follows forms
 * only, selects fonts with `Tf` only, and runs each shown annotation's current appearance): those
 * of Type 3 glyph procedures, tiling patterns and soft-mask groups, the fonts graphics states
 * select (`gs` with /Font), and the appearances of hidden annotations, of states other than the
 * current one, and of the down and rollover appearances. Their fonts are left whole, by MuPDF's
 * subsetter (compress-fonts.ts) and by the cuts by the glyphs drawn (drawn-glyphs.ts).
 */
export function unseenBySubsetter(pdf: mupdf.PDFDocument): mupdf.PDFObject[] {
  const unseen = type3Resources(pdf);
  for (const { object } of everyObject(pdf)) {
    try {
      if (!object.isDictionary()) continue;
      if (object.isStream() && isNumbered(object.get("PatternType"), 1)) unseen.push(object.get("Resources"));
      for (const resources of [object, object.get("Resources")]) {
        const states = resources.isDictionary() ? resources.get("ExtGState") : resources;
        if (!states.isDictionary()) continue;
        states.forEach((state) => {
          if (!state.isDictionary()) return;
          const group = state.get("SMask", "G");
          if (group.isStream()) unseen.push(group.get("Resources"));
          const font = state.get("Font");
          if (font.isArray()) unseen.push(fontResources(pdf, font.get(0)));
        });
      }
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  for (let index = 0; index < pdf.countPages(); index++) {
    for (const annotation of annotationsOf(pdf.findPage(index)))
      unseen.push(...appearancesUnseen(annotation));
  }
  return unseen;
}

/** A resources dictionary naming only `font`. */
function fontResources(pdf: mupdf.PDFDocument, font: mupdf.PDFObject): mupdf.PDFObject {
  const fonts = pdf.newDictionary();
  fonts.put("F", font);
  const resources = pdf.newDictionary();
  resources.put("Font", fonts);
  return resources;
}

/** Annotation flags under which MuPDF draws no appearance: Invisible (1), Hidden (2). */
const NOT_DRAWN = 1 | 2;

/** The resources of the appearances of `annotation` the subsetter does not run. */
function appearancesUnseen(annotation: mupdf.PDFObject): mupdf.PDFObject[] {
  const flags = annotation.get("F");
  const hidden = flags.isNumber() && (flags.asNumber() & NOT_DRAWN) !== 0;
  const current = annotation.get("AS");
  const unseen: mupdf.PDFObject[] = [];
  annotation.get("AP").forEach((appearance, kind) => {
    const shown = !hidden && String(kind) === "N";
    if (appearance.isStream()) {
      if (!shown) unseen.push(appearance.get("Resources"));
      return;
    }
    if (!appearance.isDictionary()) return;
    appearance.forEach((state, name) => {
      const drawn = shown && isNamed(current, String(name));
      if (state.isStream() && !drawn) unseen.push(state.get("Resources"));
    });
  });
  return unseen;
}

/**
 * The resources dictionaries of the document's Type 3 fonts (their glyph procedures' fonts). A
 * Type 3 font without resources of its own draws with those of wherever it is drawn (PDF 32000-1,
 * 9.6.5): for it, the fonts its procedures may select there (by any name they hold, directly or
 * through a graphics state's /Font), in every resources dictionary naming it.
 */
function type3Resources(pdf: mupdf.PDFDocument): mupdf.PDFObject[] {
  const resources: mupdf.PDFObject[] = [];
  /** The names the procedures of each Type 3 font without resources hold, when they show text. */
  const named = new Map<number, Set<string>>();
  for (const { num, object: font } of everyObject(pdf)) {
    if (!isType3Font(font)) continue;
    if (!font.get("Resources").isNull()) {
      resources.push(font.get("Resources"));
      continue;
    }
    const names = new Set<string>();
    let showsText = false;
    font.get("CharProcs").forEach((procedure) => {
      if (procedure.isStream() && namesIn(procedure, names)) showsText = true;
    });
    if (showsText) named.set(num, names);
  }
  if (named.size === 0) return resources;
  for (const { object } of everyObject(pdf)) {
    try {
      if (!object.isDictionary()) continue;
      for (const holder of [object, object.get("Resources")]) {
        const fonts = holder.isDictionary() ? fontsNamedByType3(pdf, holder, named) : null;
        if (fonts !== null) resources.push(fonts);
      }
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  return resources;
}

/**
 * The fonts of `resources` that the procedures of a Type 3 font without resources it names may
 * select, as a resources dictionary of their own; null when it names no such font.
 */
function fontsNamedByType3(
  pdf: mupdf.PDFDocument,
  resources: mupdf.PDFObject,
  named: ReadonlyMap<number, ReadonlySet<string>>,
): mupdf.PDFObject | null {
  const fonts = resources.get("Font");
  if (!fonts.isDictionary()) return null;
  const names = new Set<string>();
  fonts.forEach((font) => {
    if (font.isIndirect()) for (const name of named.get(font.asIndirect()) ?? []) names.add(name);
  });
  if (names.size === 0) return null;
  const out = pdf.newDictionary();
  for (const category of ["Font", "ExtGState"]) {
    const selected = pdf.newDictionary();
    for (const name of names) {
      const entry = resources.get(category, name);
      if (!entry.isNull()) selected.put(name, entry);
    }
    out.put(category, selected);
  }
  return out;
}
