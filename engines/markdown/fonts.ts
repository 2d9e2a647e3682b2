/**
 * The Noto fonts Markdown documents are typeset in, from the @fontsource npm packages. They ship as
 * WOFF2, which MuPDF's FreeType does not read (measured: "unknown file format"), so each is
 * decoded to TrueType with wawoff2 when first needed and kept for the life of the process (about
 * 1.2 MB for all of them). MuPDF asks for a font by CSS family ("sans-serif", "monospace") and, for
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
  // Latin letters with stacked marks (ệ, ắ, ự: Latin Extended Additional) neither Latin part has.
  vietnamese: { pkg: "@fontsource/noto-sans", file: "noto-sans-vietnamese", italic: true },
  mono: { pkg: "@fontsource/noto-sans-mono", file: "noto-sans-mono-latin", italic: false },
  devanagari: {
    pkg: "@fontsource/noto-sans-devanagari",
    file: "noto-sans-devanagari-devanagari",
    italic: false,
  },
  tamil: { pkg: "@fontsource/noto-sans-tamil", file: "noto-sans-tamil-tamil", italic: false },
  // Scripts beyond the site's languages that users write in: right-to-left Arabic and Hebrew, and
  // Thai and Bengali (CJK MuPDF draws with its own fonts).
  arabic: { pkg: "@fontsource/noto-sans-arabic", file: "noto-sans-arabic-arabic", italic: false },
  hebrew: { pkg: "@fontsource/noto-sans-hebrew", file: "noto-sans-hebrew-hebrew", italic: false },
  thai: { pkg: "@fontsource/noto-sans-thai", file: "noto-sans-thai-thai", italic: false },
  bengali: { pkg: "@fontsource/noto-sans-bengali", file: "noto-sans-bengali-bengali", italic: false },
  // Only the variable font is published for Telugu: MuPDF draws its default instance (regular), and
  // bold text with its instance at weight 700 (decode).
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
  (face) => face === "vietnamese" || face === "symbols" || face === "math" || face.startsWith("emoji-"),
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
  Arabic: "arabic",
  Hebrew: "hebrew",
  Thai: "thai",
  Bengali: "bengali",
};

/** The scripts this engine embeds fonts for (what the text checks compare). */
export const SUPPORTED_SCRIPTS = Object.keys(SCRIPT_FACES);

/**
 * The scripts whose text the HTML names its face for (`script-Tamil`), as for the symbols. Left to
 * MuPDF's per-script fallback they were set in whichever weight it asked for first: a bold heading
 * made the whole document's Hindi and Tamil bold, and a regular paragraph made a Telugu heading
 * regular. Asked for by family, each weight and slant is asked for (and cached) on its own.
 */
const NAMED_SCRIPTS = ["Devanagari", "Tamil", "Telugu", "Arabic", "Hebrew", "Thai", "Bengali"] as const;
const SCRIPT_FAMILY = "script-";
/** Each named script's family ("script-tamil") and the pattern of its first code point. */
const NAMED_SCRIPT_FAMILIES = NAMED_SCRIPTS.map(
  (script) => [`${SCRIPT_FAMILY}${SCRIPT_FACES[script]}`, new RegExp(`^\\p{Script=${script}}`, "u")] as const,
);
/** The face a family of the HTML names: "script-tamil" → tamil. */
function scriptFace(family: string): FaceName | null {
  const face = family.slice(SCRIPT_FAMILY.length);
  return family.startsWith(SCRIPT_FAMILY) && face in FACES ? (face as FaceName) : null;
}

/**
 * The CSS family of a grapheme of a named script (by its first code point), or, when the run before
 * it is one (`previous`), of a shared character that script's face has (spaces, danda, digits), so
 * the run stays one; null otherwise.
 */
export function scriptFamily(grapheme: string, previous: string | null): string | null {
  const named = NAMED_SCRIPT_FAMILIES.find(([, pattern]) => pattern.test(grapheme))?.[0];
  if (named !== undefined) return named;
  const face = previous === null ? null : scriptFace(previous);
  if (face === null || /\p{L}/u.test(grapheme)) return null;
  const font = fontOf(face, false, false);
  if (font === null) return null;
  return [...grapheme].every((c) => font.encodeCharacter(c.codePointAt(0) ?? 0) > 0) ? previous : null;
}

/** The CSS families of the named scripts' faces. */
export const SCRIPT_FAMILIES: readonly string[] = NAMED_SCRIPT_FAMILIES.map(([family]) => family);

const require = createRequire(import.meta.url);
const decoded = new Map<string, Uint8Array>();
const loaded = new Map<string, mupdf.Font>();

/** The style of the file a face draws `style` with: its own, or regular for a face without italics. */
function usableStyle(face: FaceName, style: Style): Style {
  const spec: FaceSpec = FACES[face];
  if ("variable" in spec || "regular" in spec) return "400-normal";
  if (spec.italic || !style.endsWith("italic")) return style;
  return style.replace("italic", "normal") as Style;
}

function fileOf(face: FaceName, style: Style): string {
  const spec: FaceSpec = FACES[face];
  const folder = join(dirname(require.resolve(`${spec.pkg}/LICENSE`)), "files");
  if ("variable" in spec) return join(folder, `${spec.file}-wght-normal.woff2`);
  return join(folder, `${spec.file}-${usableStyle(face, style)}.woff2`);
}

/**
 * The TrueType bytes of a face's file in a style: decoded from WOFF2, and for the bold of a variable
 * face, its instance at weight 700 cut by HarfBuzz (subset-font, which keeps the shaping rules), with
 * every character the face has.
 */
async function decode(face: FaceName, path: string, style: Style): Promise<Uint8Array> {
  // The result is a view on the codec's WASM memory, which the next call may move: copy it.
  const regular = (await decompress(readFileSync(path))).slice();
  if (!("variable" in FACES[face]) || !style.startsWith("700")) return regular;
  const font = new mupdf.Font(`Noto-${face}`, regular);
  let text = "";
  for (let code = 0x20; code < 0x10000; code += 1)
    if (code < 0xd800 || code > 0xdfff)
      if (font.encodeCharacter(code) > 0) text += String.fromCodePoint(code);
  const require = createRequire(import.meta.url);
  const subsetFont = require("subset-font") as SubsetFont;
  return new Uint8Array(
    await subsetFont(Buffer.from(regular), text, { targetFormat: "truetype", variationAxes: { wght: 700 } }),
  );
}

type SubsetFont = (
  font: Buffer,
  text: string,
  options: { targetFormat: "truetype"; variationAxes: Record<string, number> },
) => Promise<Buffer>;

/** The style a face's font is made in: the file's, or 700 for the bold instance of a variable face. */
function madeStyle(face: FaceName, style: Style): Style {
  return "variable" in FACES[face] && style.startsWith("700") ? "700-normal" : usableStyle(face, style);
}

/** Decodes every face once (about 0.7 s); the loader MuPDF calls must answer synchronously. */
export async function prepareFonts(): Promise<void> {
  const styles: Style[] = ["400-normal", "700-normal", "400-italic", "700-italic"];
  for (const face of Object.keys(FACES) as FaceName[]) {
    for (const style of styles) {
      const path = fileOf(face, style);
      const key = `${path}#${madeStyle(face, style)}`;
      if (!decoded.has(key)) decoded.set(key, await decode(face, path, style));
    }
  }
  mupdf.installLoadFontFunction(loadFont);
}

/** The font of a face in a style, one object per file (and weight instance) it draws with. */
function fontOf(face: FaceName, bold: boolean, italic: boolean): mupdf.Font | null {
  const asked: Style = `${bold ? 700 : 400}-${italic ? "italic" : "normal"}`;
  const style = madeStyle(face, asked);
  const key = `${fileOf(face, asked)}#${style}`;
  const known = loaded.get(key);
  if (known !== undefined) return known;
  const bytes = decoded.get(key);
  if (bytes === undefined) return null;
  const font = new mupdf.Font(`Noto-${face}-${style}`, bytes);
  loaded.set(key, font);
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
  const named = family === undefined ? null : scriptFace(family);
  if (named !== null) return fontOf(named, bold, italic);
  if (family === "sans-serif" || family === "serif") return fontOf("latin", bold, italic);
  const face = script === undefined ? undefined : SCRIPT_FACES[script];
  return face === undefined ? null : fontOf(face, bold, italic);
}

/** The CSS families of the symbol and emoji faces, as the HTML names them and MuPDF asks for them. */
export const FALLBACK_FAMILIES: readonly string[] = FALLBACK_FACES.map((face) => `${FALLBACK_FAMILY}${face}`);

/** Emoji presentation, emoji sequences and skin tones: the emoji faces come first. */
const EMOJI_STYLE = /\p{Emoji_Presentation}|\uFE0F|\u200D|\p{Emoji_Modifier}/u;

/**
 * The CSS family to draw a grapheme (a symbol, an emoji or a letter of Latin Extended Additional,
 * by its first code point) with when the text faces lack it, or null when they have it, no face has it, or the fonts are not
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
