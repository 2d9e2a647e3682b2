import * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";
import { isNamed } from "./object-kinds.ts";
import { annotationsOf } from "./page-annotations.ts";
import { unseenBySubsetter } from "./unseen-drawings.ts";

/**
 * Time the run over the pages may take (the job has 120 s in all): past it, no font is cut by
 * the glyphs drawn (a 2,400-page manual would spend most of the job finding its glyphs).
 */
const RUN_BUDGET_MS = 15_000;
export const FONT_FILE_KEYS = ["FontFile", "FontFile2", "FontFile3"] as const;
export type FontFileKey = (typeof FONT_FILE_KEYS)[number];

/** What a run of every page draws, and what may be drawn outside it. */
export interface DrawnGlyphs {
  /** Glyph numbers (as MuPDF draws them: the font program's glyph ids) per font name. */
  readonly used: Map<string, Set<number>>;
  /**
   * Font programs anything could draw outside the run: a form's (typed values), annotations', and
   * those Type 3 glyph procedures draw with.
   */
  readonly untouchable: Set<number>;
  /** The font objects of those. */
  readonly untouchableFonts: Set<number>;
}

/**
 * Runs every page and records the glyphs each font draws; null when the run takes longer than its
 * budget. A document with optional content is run twice, as it opens and with every layer shown
 * (a hidden or print-only layer draws glyphs too), the glyphs of both kept; null when some content
 * shows only while a layer is off (a membership policy AllOff or AnyOff, or a visibility
 * expression), which no run of both covers.
 */
export function findDrawnGlyphs(pdf: mupdf.PDFDocument): DrawnGlyphs | null {
  const root = pdf.getTrailer().get("Root");
  const untouchable = new Set<number>();
  const untouchableFonts = new Set<number>();
  const collectFontFiles = fontFileCollector(untouchable, untouchableFonts);
  collectFontFiles(root.get("AcroForm", "DR"));
  const started = performance.now();
  const used = new Map<string, Set<number>>();
  if (runPages(pdf, collectFontFiles, used, started) === null) return null;
  // The fonts MuPDF's subsetter left whole (compress-fonts.ts) stay whole: while their programs
  // were away MuPDF loaded a stand-in, which it keeps and draws with in the run (other glyph ids).
  for (const resources of unseenBySubsetter(pdf)) collectFontFiles(resources);
  if (!root.get("OCProperties").isNull()) {
    if (showsWhileOff(pdf)) return null;
    const hidden: number[] = [];
    // A group's /Usage hides it from the view whatever the configuration says (a print-only
    // watermark: /View /ViewState /OFF, /Print /PrintState /ON): it goes for the run, so the
    // glyphs a printer draws are counted too.
    const usages = usageDictionaries(pdf);
    try {
      for (let layer = 0; layer < pdf.countLayers(); layer++) {
        if (pdf.isLayerVisible(layer)) continue;
        pdf.setLayerVisible(layer, true);
        hidden.push(layer);
      }
      for (const [group] of usages) group.delete("Usage");
      if (runPages(pdf, collectFontFiles, used, started) === null) return null;
    } finally {
      for (const layer of hidden) pdf.setLayerVisible(layer, false);
      for (const [group, usage] of usages) group.put("Usage", usage);
    }
  }
  return { used, untouchable, untouchableFonts };
}

/**
 * Whether an optional content membership dictionary (indirect, or inline in any object) shows its
 * content while some layer is off.
 */
function showsWhileOff(pdf: mupdf.PDFDocument): boolean {
  for (const { object } of everyObject(pdf)) {
    try {
      if (offPolicyIn(object, 0)) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** Every optional content group with a /Usage dictionary, with it. */
function usageDictionaries(pdf: mupdf.PDFDocument): [mupdf.PDFObject, mupdf.PDFObject][] {
  const groups: [mupdf.PDFObject, mupdf.PDFObject][] = [];
  for (const { object: group } of everyObject(pdf)) {
    try {
      if (!group.isDictionary() || group.isStream()) continue;
      const type = group.get("Type");
      const usage = group.get("Usage");
      if (isNamed(type, "OCG") && !usage.isNull()) groups.push([group, usage]);
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  return groups;
}

/** How deep inline dictionaries and arrays are searched for membership dictionaries. */
const MAX_INLINE_DEPTH = 6;

function offPolicyIn(object: mupdf.PDFObject, depth: number): boolean {
  if (depth > MAX_INLINE_DEPTH || (depth > 0 && object.isIndirect())) return false;
  if (object.isArray()) {
    for (let i = 0; i < object.length; i++) if (offPolicyIn(object.get(i), depth + 1)) return true;
    return false;
  }
  if (!object.isDictionary()) return false;
  if (isNamed(object.get("Type"), "OCMD")) {
    const policy = object.get("P");
    if (!object.get("VE").isNull()) return true;
    if (policy.isName() && ["AllOff", "AnyOff"].includes(policy.asName())) return true;
  }
  let found = false;
  object.forEach((value) => {
    if (!found && offPolicyIn(value, depth + 1)) found = true;
  });
  return found;
}

/**
 * Adds to `names` the names a descriptor's /FontName gives its program's glyphs in the run: the
 * name, and the name without a trailing "_167"-like suffix (a TeX slant or extend tag), as MuPDF
 * names the font.
 */
export function addFontNames(names: Set<string>, fontName: string): void {
  names.add(fontName);
  names.add(fontName.replace(/_\d+$/, ""));
}

/**
 * Every font program stored under `key` in a font descriptor, with the font names (with subset
 * tag) that use it. Two programs under one name get the glyphs drawn with either: more than
 * needed, never less.
 */
export function fontFiles(pdf: mupdf.PDFDocument, key: FontFileKey): Map<number, Set<string>> {
  const files = new Map<number, Set<string>>();
  for (const { object } of everyObject(pdf)) {
    try {
      // Some producers leave out the descriptor's /Type: any dictionary with a font file is one.
      if (!object.isDictionary()) continue;
      const file = object.get(key);
      const name = object.get("FontName");
      if (!file.isIndirect() || !name.isName()) continue;
      const names = files.get(file.asIndirect()) ?? new Set<string>();
      addFontNames(names, name.asName());
      files.set(file.asIndirect(), names);
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  return files;
}

/** The glyphs drawn with any of `names`, or null when none of them draws anything. */
export function glyphsOf(names: Iterable<string>, used: Map<string, Set<number>>): Set<number> | null {
  const glyphs = new Set<number>();
  let seen = false;
  for (const name of names) {
    const drawn = used.get(name);
    if (drawn === undefined) continue;
    seen = true;
    for (const glyph of drawn) glyphs.add(glyph);
  }
  return seen ? glyphs : null;
}

/**
 * A walker that adds the font programs (/FontFile, /FontFile2, /FontFile3) of every font in a
 * resources dictionary, its forms and its Type 3 fonts' resources to `files`, and the font objects
 * themselves to `fonts`. Each indirect object is visited once over all the calls: forms share
 * resources (a Scribus form names every form before it, each naming those before it), and a walk
 * that followed every path ran through millions of them (4 GB, minutes, on 22 forms), and a loop
 * ends at its repeat.
 */
function fontFileCollector(files: Set<number>, fonts: Set<number>): (resources: mupdf.PDFObject) => void {
  const seen = new Set<number>();
  return (resources) => {
    for (const font of fontsIn(resources, seen)) {
      if (font.isIndirect()) fonts.add(font.asIndirect());
      for (const descriptor of [
        font.get("FontDescriptor"),
        font.get("DescendantFonts", 0, "FontDescriptor"),
      ]) {
        if (!descriptor.isDictionary()) continue;
        for (const key of FONT_FILE_KEYS) {
          const file = descriptor.get(key);
          if (file.isIndirect()) files.add(file.asIndirect());
        }
      }
    }
  };
}

/**
 * The fonts of a resources dictionary (named, or selected by its graphics states), of the forms it
 * names and of the glyph procedures of its Type 3 fonts (which may draw with other fonts). Each
 * indirect object is visited once (`seen`, which a caller may share between walks): forms sharing
 * their sub-forms made a walk of every path exponential, and a loop ends at its repeat.
 */
export function fontsIn(resources: mupdf.PDFObject, seen = new Set<number>()): mupdf.PDFObject[] {
  const fonts: mupdf.PDFObject[] = [];
  const first = (object: mupdf.PDFObject) => {
    if (!object.isIndirect()) return true;
    if (seen.has(object.asIndirect())) return false;
    seen.add(object.asIndirect());
    return true;
  };
  const pending = [resources];
  for (let dictionary = pending.pop(); dictionary !== undefined; dictionary = pending.pop()) {
    if (!dictionary.isDictionary() || !first(dictionary)) continue;
    const add = (font: mupdf.PDFObject) => {
      if (!font.isDictionary() || !first(font)) return;
      fonts.push(font);
      pending.push(font.get("Resources"));
    };
    dictionary.get("Font").forEach(add);
    // A graphics state may select a font too: /Font [font size].
    dictionary.get("ExtGState").forEach((state) => {
      if (state.isDictionary() && state.get("Font").isArray()) add(state.get("Font", 0));
    });
    dictionary.get("XObject").forEach((xobject) => {
      if (xobject.isDictionary() && first(xobject)) pending.push(xobject.get("Resources"));
    });
  }
  return fonts;
}

/**
 * Glyph numbers drawn per font name by every page (null when the run takes longer than its
 * budget); the resources of annotation appearances go to `collectFontFiles`.
 */
function runPages(
  pdf: mupdf.PDFDocument,
  collectFontFiles: (resources: mupdf.PDFObject) => void,
  used: Map<string, Set<number>>,
  started: number,
): Map<string, Set<number>> | null {
  const record = (text: mupdf.Text) => {
    text.walk({
      showGlyph(font, _matrix, glyph) {
        const name = font.getName();
        const glyphs = used.get(name) ?? new Set<number>();
        glyphs.add(glyph);
        used.set(name, glyphs);
      },
    });
  };
  const device = new mupdf.Device({
    fillText: record,
    strokeText: record,
    clipText: record,
    clipStrokeText: record,
    ignoreText: record,
  });
  try {
    const pages = pdf.countPages();
    for (let index = 0; index < pages; index++) {
      if (performance.now() - started > RUN_BUDGET_MS) return null;
      const page = pdf.loadPage(index);
      try {
        page.run(device, mupdf.Matrix.identity);
      } finally {
        page.destroy();
      }
      for (const annotation of annotationsOf(pdf.findPage(index))) {
        annotation.get("AP").forEach((appearance) => {
          const streams = appearance.isStream() ? [appearance] : [];
          if (!appearance.isStream() && appearance.isDictionary())
            appearance.forEach((state) => {
              if (state.isStream()) streams.push(state);
            });
          for (const stream of streams) collectFontFiles(stream.get("Resources"));
        });
      }
    }
  } finally {
    device.close();
    device.destroy();
  }
  return used;
}
