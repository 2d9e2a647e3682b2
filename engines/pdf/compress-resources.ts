import type * as mupdf from "mupdf";
import { contentStreams } from "./content-operations.ts";
import { everyObject } from "./every-object.ts";
import { isContentXObject, isType3Font } from "./object-kinds.ts";

/** Resource categories a content stream refers to by name. */
const CATEGORIES = [
  "XObject",
  "Pattern",
  "Shading",
  "ExtGState",
  "Font",
  "ColorSpace",
  "Properties",
] as const;
/** A name token in a content stream (PDF names end at white space or a delimiter). */
const NAME_TOKEN = /\/([^\s/[\]()<>{}%]*)/g;

interface Holder {
  /** Where the resources dictionary sits: its own object, or inside the holder. */
  readonly key: string;
  readonly resources: mupdf.PDFObject;
  readonly names: Set<string>;
  /** The names that count for fonts: none when the contents show no text. */
  readonly fontNames: Set<string>;
}
/**
 * A text-showing operator (Tj, TJ, ' or "), or those letters anywhere: content without any of
 * them shows no text, so a font it selects (`/F1 10 Tf` alone) draws nothing.
 */
const SHOWS_TEXT = /T[jJ]|['"]/;

/**
 * Removes resources no content names: producers often give every page (or form) the resources
 * of the whole document, and the garbage collection of the save keeps whatever is referenced, so
 * unused images, fonts and patterns stay in the file. Fonts selected by contents that show no
 * text at all (`BT /F1 13 Tf ET`, as some producers write) go too: they draw nothing (two whole
 * TrueType fonts of 46 and 52 KB in a 105 KB file). Names are counted over every content that
 * can use a resources dictionary (pages, form XObjects and annotation appearances, tiling
 * patterns, Type 3 glyphs); a dictionary shared by several contents keeps the union. Any name
 * token counts as a use, even inside text, so nothing used is ever removed; what the glyphs of a
 * Type 3 font without resources of its own name (they use those of where they are drawn) counts
 * as used in every dictionary. When some content cannot be read, nothing is removed. Returns the
 * entries removed.
 */
export function removeUnusedResources(pdf: mupdf.PDFDocument): number {
  const holders = collectHolders(pdf);
  if (holders === null) return 0;
  const used = new Map<string, { dictionary: mupdf.PDFObject; names: Set<string> }>();
  for (const holder of holders) {
    for (const category of CATEGORIES) {
      const dictionary = holder.resources.get(category);
      if (!dictionary.isDictionary()) continue;
      const key = dictionary.isIndirect() ? `obj ${dictionary.asIndirect()}` : `${holder.key} ${category}`;
      const entry = used.get(key) ?? { dictionary, names: new Set<string>() };
      for (const name of category === "Font" ? holder.fontNames : holder.names) entry.names.add(name);
      used.set(key, entry);
    }
  }
  let removed = 0;
  for (const { dictionary, names } of used.values()) removed += deleteEntriesExcept(dictionary, names);
  // A category left without entries names nothing: it goes too.
  for (const holder of holders)
    for (const category of CATEGORIES) {
      const dictionary = holder.resources.get(category);
      if (!dictionary.isDictionary()) continue;
      let entries = 0;
      dictionary.forEach(() => {
        entries++;
      });
      if (entries === 0) holder.resources.delete(category);
    }
  return removed;
}

/** Deletes the entries of `dictionary` whose key is not in `kept`; returns how many. */
export function deleteEntriesExcept(dictionary: mupdf.PDFObject, kept: ReadonlySet<string>): number {
  const unused: string[] = [];
  dictionary.forEach((_value, name) => {
    if (!kept.has(String(name))) unused.push(String(name));
  });
  for (const name of unused) dictionary.delete(name);
  return unused.length;
}

/** Every content with its resources and the names it uses, or null when pruning is not safe. */
function collectHolders(pdf: mupdf.PDFDocument): Holder[] | null {
  const holders: Holder[] = [];
  const inherited = new Set<string>();
  const add = (key: string, resources: mupdf.PDFObject, contents: mupdf.PDFObject[]): boolean => {
    if (!resources.isDictionary()) return false;
    const names = new Set<string>();
    let showsText = false;
    for (const content of contents) showsText = namesIn(content, names) || showsText;
    const fontNames = showsText ? names : new Set<string>();
    holders.push({
      key: resources.isIndirect() ? `obj ${resources.asIndirect()}` : key,
      resources,
      names,
      fontNames,
    });
    return true;
  };
  try {
    const pages = pdf.countPages();
    for (let index = 0; index < pages; index++) {
      const page = pdf.findPage(index);
      if (!add(`page ${index}`, page.get("Resources"), contentStreams(page))) return null;
    }
    for (const { num, object } of everyObject(pdf)) {
      if (object.isStream()) {
        if (isContentXObject(object) && !add(`obj ${num}`, object.get("Resources"), [object])) return null;
      } else if (isType3Font(object)) {
        const glyphs: mupdf.PDFObject[] = [];
        object.get("CharProcs").forEach((glyph) => {
          glyphs.push(glyph);
        });
        const resources = object.get("Resources");
        // Type 3 glyphs without resources of their own use those of wherever the font is drawn:
        // what they name is kept in every resources dictionary.
        if (resources.isNull()) for (const glyph of glyphs) namesIn(glyph, inherited);
        else if (!add(`obj ${num}`, resources, glyphs)) return null;
      }
    }
  } catch {
    return null;
  }
  for (const holder of holders)
    for (const name of inherited) {
      holder.names.add(name);
      holder.fontNames.add(name);
    }
  return holders;
}

/**
 * Adds every name token of a content stream (decoded) to `names`, with #xx escapes resolved;
 * returns whether the content may show text.
 */
export function namesIn(stream: mupdf.PDFObject, names: Set<string>): boolean {
  const text = new TextDecoder("latin1").decode(stream.readStream().asUint8Array());
  for (const match of text.matchAll(NAME_TOKEN)) {
    const raw = match[1] ?? "";
    names.add(
      raw.includes("#")
        ? raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
        : raw,
    );
  }
  return SHOWS_TEXT.test(text);
}
