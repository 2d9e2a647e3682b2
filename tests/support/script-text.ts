/**
 * Text comparison per script for documents typeset from known text: the words of each script in
 * the source against the words of that script extracted back from the PDF (bag-of-words F1), so
 * a font that draws one script blank, or a shaping that garbles it, shows as that script's score.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { markdownToHtml } from "../../engines/markdown/markdown-html.ts";
import { sanitizeHtml } from "../../engines/markdown/sanitize-html.ts";

/** Unicode scripts checked, with the regular expression of a character of each. */
export const SCRIPTS = {
  latin: /\p{Script=Latin}/u,
  devanagari: /\p{Script=Devanagari}/u,
  telugu: /\p{Script=Telugu}/u,
  tamil: /\p{Script=Tamil}/u,
} as const;
export type ScriptName = keyof typeof SCRIPTS;

/** Words (letters and combining marks, split at anything else) whose first letter is of `script`. */
export function wordsOf(text: string, script: ScriptName): string[] {
  const words = text.normalize("NFC").match(/[\p{L}\p{M}]+/gu) ?? [];
  return words.filter((word) => SCRIPTS[script].test(word));
}

/** Bag-of-words F1 of `extracted` against `source`; 1 when both have no words. */
export function wordF1(source: readonly string[], extracted: readonly string[]): number {
  if (source.length === 0 && extracted.length === 0) return 1;
  const bag = new Map<string, number>();
  for (const word of source) bag.set(word, (bag.get(word) ?? 0) + 1);
  let hits = 0;
  for (const word of extracted) {
    const left = bag.get(word) ?? 0;
    if (left > 0) {
      hits += 1;
      bag.set(word, left - 1);
    }
  }
  if (hits === 0) return 0;
  const precision = hits / extracted.length;
  const recall = hits / source.length;
  return (2 * precision * recall) / (precision + recall);
}

/** All text MuPDF extracts from a PDF, page after page. */
export function pdfText(bytes: Uint8Array): string {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  try {
    const pages: string[] = [];
    for (let index = 0; index < doc.countPages(); index++) {
      const page = doc.loadPage(index);
      pages.push(page.toStructuredText("preserve-whitespace").asText());
      page.destroy();
    }
    return pages.join("\n");
  } finally {
    doc.destroy();
  }
}

/** Poppler's pdftotext is installed (it is what Linux PDF viewers copy text with). */
export const hasPdftotext = spawnSync("pdftotext", ["-v"]).status === 0;

/** All text Poppler's pdftotext extracts from a PDF. */
export function popplerText(bytes: Uint8Array): string {
  const folder = mkdtempSync(join(tmpdir(), "pdftotext-"));
  try {
    const file = join(folder, "in.pdf");
    writeFileSync(file, bytes);
    const run = spawnSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
    return run.stdout;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Every consonant of a script (and a few conjuncts) with every vowel sign, in words of three
 * syllables (consonant + sign, another consonant with a virama, the first again): the vowel signs
 * drawn before, around, over and under their consonant, and conjuncts inside words.
 */
function syllableGrid(consonants: readonly string[], signs: readonly string[], virama: string): string {
  const words: string[] = [];
  consonants.forEach((consonant, index) => {
    const other = consonants[(index + 3) % consonants.length] ?? consonant;
    for (const sign of signs) words.push(`${consonant}${sign}${other}${virama}${consonant}${sign}`);
  });
  return words.join(" ");
}

export const SYLLABLE_GRIDS = {
  devanagari: syllableGrid(
    [..."कखगघङचछजझञटठडढणतथदधनपफबभमयरलवशषसह", "क्ष", "त्र", "ज्ञ", "श्र"],
    ["", "ा", "ि", "ी", "ु", "ू", "ृ", "े", "ै", "ो", "ौ", "ं", "ँ", "ः", "्"],
    "्",
  ),
  telugu: syllableGrid(
    [..."కఖగఘఙచఛజఝఞటఠడఢణతథదధనపఫబభమయరలవశషసహళ", "క్ష", "శ్ర"],
    ["", "ా", "ి", "ీ", "ు", "ూ", "ృ", "ె", "ే", "ై", "ొ", "ో", "ౌ", "ం", "ః", "్"],
    "్",
  ),
  tamil: syllableGrid(
    [..."கஙசஞடணதநபமயரலவழளறன", "ஜ", "ஷ", "ஸ", "ஹ", "க்ஷ", "ஶ"],
    ["", "ா", "ி", "ீ", "ு", "ூ", "ெ", "ே", "ை", "ொ", "ோ", "ௌ", "்"],
    "்",
  ),
} as const satisfies Partial<Record<ScriptName, string>>;

/**
 * F1 per script of the PDF's text against the source text, for the scripts the source uses; the
 * text is MuPDF's unless another extractor is given.
 */
export function scriptScores(
  sourceText: string,
  bytes: Uint8Array,
  extract: (bytes: Uint8Array) => string = pdfText,
): Partial<Record<ScriptName, number>> {
  const extracted = extract(bytes);
  const scores: Partial<Record<ScriptName, number>> = {};
  for (const script of Object.keys(SCRIPTS) as ScriptName[]) {
    const source = wordsOf(sourceText, script);
    if (source.length === 0) continue;
    scores[script] = wordF1(source, wordsOf(extracted, script));
  }
  return scores;
}

/**
 * The text a reader of the PDF should see: the sanitised HTML's text (Markdown syntax, addresses
 * and the line-break opportunities put into long words gone).
 */
export function visibleText(markdown: string): string {
  const { html } = sanitizeHtml(markdownToHtml(markdown));
  return html
    .replaceAll(/<[^>]*>/g, " ")
    .replaceAll("\u200B", "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'");
}
