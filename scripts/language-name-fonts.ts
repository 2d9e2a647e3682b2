/**
 * Tiny fonts holding only the glyphs of the language names written in Devanagari, Telugu and Tamil
 * ("हिन्दी", "తెలుగు", "தமிழ்"), which the language selector shows on every page. The full Noto faces
 * of client/src/app/fonts.css load by `unicode-range` only on pages in those languages; without
 * these, a Latin page would download all three just to draw the selector's names. Subset with
 * HarfBuzz (subset-font), which keeps the shaping rules the names' conjuncts and vowel signs need.
 * Written to client/src/generated/ before every build and dev start (vite.config.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { LANGUAGES } from "../contract/languages.ts";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "client/src/generated");

/** The Noto face each script's names are cut from (the regular weight the selector uses). */
export const SOURCES = {
  devanagari: "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2",
  telugu: "@fontsource-variable/noto-sans-telugu/files/noto-sans-telugu-telugu-wght-normal.woff2",
  tamil: "@fontsource/noto-sans-tamil/files/noto-sans-tamil-tamil-400-normal.woff2",
} as const;

const SCRIPT_PATTERNS: Record<keyof typeof SOURCES, RegExp> = {
  devanagari: /\p{Script=Devanagari}/u,
  telugu: /\p{Script=Telugu}/u,
  tamil: /\p{Script=Tamil}/u,
};

type SubsetFont = (
  font: Buffer,
  text: string,
  options: { targetFormat: "woff2"; variationAxes?: Record<string, number> },
) => Promise<Buffer>;

/** The language names written in a script (all of them, in case a name mixes scripts). */
export function namesIn(script: keyof typeof SOURCES): string {
  return LANGUAGES.map((language) => language.name)
    .filter((name) => SCRIPT_PATTERNS[script].test(name))
    .join(" ");
}

export function languageNameFontFile(script: keyof typeof SOURCES): string {
  return join(OUT, `language-names-${script}.woff2`);
}

export async function writeLanguageNameFonts(): Promise<void> {
  const require = createRequire(import.meta.url);
  const subsetFont = require("subset-font") as SubsetFont;
  mkdirSync(OUT, { recursive: true });
  for (const script of Object.keys(SOURCES) as (keyof typeof SOURCES)[]) {
    const file = languageNameFontFile(script);
    const text = namesIn(script);
    const stamp = `${file}.txt`;
    if (existsSync(file) && existsSync(stamp) && readFileSync(stamp, "utf8") === text) continue;
    const source = readFileSync(require.resolve(SOURCES[script]));
    const options = script === "telugu" ? { variationAxes: { wght: 400 } } : {};
    writeFileSync(file, await subsetFont(source, text, { targetFormat: "woff2", ...options }));
    writeFileSync(stamp, text);
  }
}

if (import.meta.main) await writeLanguageNameFonts();
