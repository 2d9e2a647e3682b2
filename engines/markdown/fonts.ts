/**
 * The Noto fonts Markdown documents are typeset in, from the @fontsource npm packages. They ship as
 * WOFF2, which MuPDF's FreeType does not read (measured: "unknown file format"), so each is
 * decoded to TrueType with wawoff2 when first needed and kept for the life of the process (about
 * 1 MB for all of them). MuPDF asks for a font by CSS family ("sans-serif", "monospace") and, for
 * characters the chosen font lacks, by Unicode script; both are answered here.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as mupdf from "mupdf";
import { decompress } from "wawoff2";

type Style = "400-normal" | "700-normal" | "400-italic" | "700-italic";

/** A face's package and file name without the style part; what styles it has. */
type FaceSpec =
  | { readonly pkg: string; readonly file: string; readonly italic: boolean }
  | { readonly pkg: string; readonly file: string; readonly variable: true }
  | { readonly pkg: string; readonly file: string; readonly regular: true };

/** Each face: its package, its file name without the style part, and whether it has italics. */
const FACES = {
  latin: { pkg: "@fontsource/noto-sans", file: "noto-sans-latin", italic: true },
  latinExt: { pkg: "@fontsource/noto-sans", file: "noto-sans-latin-ext", italic: true },
  greek: { pkg: "@fontsource/noto-sans", file: "noto-sans-greek", italic: true },
  cyrillic: { pkg: "@fontsource/noto-sans", file: "noto-sans-cyrillic", italic: true },
  mono: { pkg: "@fontsource/noto-sans-mono", file: "noto-sans-mono-latin", italic: false },
  devanagari: {
    pkg: "@fontsource/noto-sans-devanagari",
    file: "noto-sans-devanagari-devanagari",
    italic: false,
  },
  tamil: { pkg: "@fontsource/noto-sans-tamil", file: "noto-sans-tamil-tamil", italic: false },
  // Only the variable font is published for Telugu: MuPDF uses its default instance (regular) and
  // emboldens it for bold text.
  telugu: { pkg: "@fontsource-variable/noto-sans-telugu", file: "noto-sans-telugu-telugu", variable: true },
  // Symbols and emoji (monochrome), for characters none of the faces above has. Both come split
  // into parts by Unicode range; each part is a face of its own.
  symbols: { pkg: "@fontsource/noto-sans-symbols-2", file: "noto-sans-symbols-2-symbols", regular: true },
  math: { pkg: "@fontsource/noto-sans-symbols-2", file: "noto-sans-symbols-2-math", regular: true },
  ...Object.fromEntries(
    ["emoji", ...Array.from({ length: 11 }, (_, part) => `${part}`)].map((part) => [
      `emoji-${part}`,
      { pkg: "@fontsource/noto-emoji", file: `noto-emoji-${part}`, italic: false },
    ]),
  ),
} as const satisfies Record<string, FaceSpec>;
type FaceName = keyof typeof FACES;

/** The faces a character missing from the text faces is looked up in, in this order. */
const FALLBACK_FACES = Object.keys(FACES).filter(
  (face) => face === "symbols" || face === "math" || face.startsWith("emoji-"),
) as FaceName[];
/** The CSS family of a fallback face, as the HTML names it and MuPDF asks for it. */
const FALLBACK_FAMILY = "fallback-";

/** MuPDF's script names (HarfBuzz/UCDN) → the face that covers them. */
const SCRIPT_FACES: Readonly<Record<string, FaceName>> = {
  Latin: "latinExt",
  Greek: "greek",
  Cyrillic: "cyrillic",
  Devanagari: "devanagari",
  Tamil: "tamil",
  Telugu: "telugu",
};

/** The scripts this engine embeds fonts for (what the text checks compare). */
export const SUPPORTED_SCRIPTS = Object.keys(SCRIPT_FACES);

const require = createRequire(import.meta.url);
const decoded = new Map<string, Uint8Array>();
const loaded = new Map<string, mupdf.Font>();

function fileOf(face: FaceName, style: Style): string {
  const spec: FaceSpec = FACES[face];
  const folder = join(dirname(require.resolve(`${spec.pkg}/LICENSE`)), "files");
  if ("variable" in spec) return join(folder, `${spec.file}-wght-normal.woff2`);
  if ("regular" in spec) return join(folder, `${spec.file}-400-normal.woff2`);
  const usable: Style = spec.italic
    ? style
    : style.endsWith("italic")
      ? (style.replace("italic", "normal") as Style)
      : style;
  return join(folder, `${spec.file}-${usable}.woff2`);
}

/** Decodes every face once (about 0.3 s); the loader MuPDF calls must answer synchronously. */
export async function prepareFonts(): Promise<void> {
  const styles: Style[] = ["400-normal", "700-normal", "400-italic", "700-italic"];
  for (const face of Object.keys(FACES) as FaceName[]) {
    for (const style of styles) {
      const path = fileOf(face, style);
      if (decoded.has(path)) continue;
      // The result is a view on the codec's WASM memory, which the next call may move: copy it.
      decoded.set(path, (await decompress(readFileSync(path))).slice());
    }
  }
  mupdf.installLoadFontFunction(loadFont);
}

function fontOf(face: FaceName, bold: boolean, italic: boolean): mupdf.Font | null {
  const style: Style = `${bold ? 700 : 400}-${italic ? "italic" : "normal"}`;
  const path = fileOf(face, style);
  const known = loaded.get(path);
  if (known !== undefined) return known;
  const bytes = decoded.get(path);
  if (bytes === undefined) return null;
  const font = new mupdf.Font(`Noto-${face}-${style}`, bytes);
  loaded.set(path, font);
  return font;
}

/** MuPDF's font hook: a CSS family name, or (name undefined) the script of a missing character. */
function loadFont(name: string | undefined, script: string | undefined, bold: boolean, italic: boolean) {
  const family = name?.toLowerCase();
  if (family === "monospace") return fontOf("mono", bold, italic);
  if (family?.startsWith(FALLBACK_FAMILY) === true) {
    const face = family.slice(FALLBACK_FAMILY.length);
    return face in FACES ? fontOf(face as FaceName, bold, italic) : null;
  }
  if (family === "sans-serif" || family === "serif") return fontOf("latin", bold, italic);
  const face = script === undefined ? undefined : SCRIPT_FACES[script];
  return face === undefined ? null : fontOf(face, bold, italic);
}

/** The CSS families of the symbol and emoji faces, as the HTML names them and MuPDF asks for them. */
export const FALLBACK_FAMILIES: readonly string[] = FALLBACK_FACES.map((face) => `${FALLBACK_FAMILY}${face}`);

/** Emoji presentation, emoji sequences and skin tones: the emoji faces come first. */
const EMOJI_STYLE = /\p{Emoji_Presentation}|\uFE0F|\u200D|\p{Emoji_Modifier}/u;

/**
 * The CSS family to draw a grapheme (a symbol or an emoji, by its first code point) with when
 * the text faces lack it, or null when they have it, no face has it, or the fonts are not
 * prepared. MuPDF asks its font loader for one font per script, and symbols and emoji share one
 * script (Common) across several faces, so the HTML names the face itself.
 */
export function fallbackFamily(grapheme: string): string | null {
  const code = grapheme.codePointAt(0) ?? 0;
  const has = (face: FaceName) => (fontOf(face, false, false)?.encodeCharacter(code) ?? 0) > 0;
  if (has("latin") || has("latinExt")) return null;
  const emojiFirst = EMOJI_STYLE.test(grapheme);
  const order = [...FALLBACK_FACES].sort(
    (a, b) => Number(a.startsWith("emoji-") !== emojiFirst) - Number(b.startsWith("emoji-") !== emojiFirst),
  );
  const face = order.find(has);
  return face === undefined ? null : `${FALLBACK_FAMILY}${face}`;
}

/** The font the page footer is drawn with. */
export function footerFont(): mupdf.Font {
  const font = fontOf("latin", false, false);
  if (font === null) throw new Error("Fonts are not prepared.");
  return font;
}
