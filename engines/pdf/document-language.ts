/**
 * The document's natural language (the catalog's /Lang, ISO 32000-1 14.9.2), which screen readers
 * and text-to-speech use for every page that does not say otherwise. Merge and split write new
 * documents, which had none: a part of a German report, or German reports merged, is read as German.
 */
import type * as mupdf from "mupdf";

/** The /Lang of `doc`'s catalog, or undefined when it has none. */
export function documentLanguage(doc: mupdf.PDFDocument): string | undefined {
  const lang = doc.getTrailer().get("Root", "Lang");
  return lang.isString() && lang.asString().trim() !== "" ? lang.asString() : undefined;
}

/** Sets `target`'s /Lang to `languages`' one value when every source has that same one. */
export function setDocumentLanguage(
  target: mupdf.PDFDocument,
  languages: readonly (string | undefined)[],
): void {
  const [first] = languages;
  if (first === undefined || languages.some((lang) => lang !== first)) return;
  target.getTrailer().get("Root").put("Lang", target.newString(first));
}
