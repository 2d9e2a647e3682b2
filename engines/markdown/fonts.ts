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
} as const;
type FaceName = keyof typeof FACES;

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
  const spec = FACES[face];
  const folder = join(dirname(require.resolve(`${spec.pkg}/LICENSE`)), "files");
  if ("variable" in spec) return join(folder, `${spec.file}-wght-normal.woff2`);
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
  if (family === "sans-serif" || family === "serif") return fontOf("latin", bold, italic);
  const face = script === undefined ? undefined : SCRIPT_FACES[script];
  return face === undefined ? null : fontOf(face, bold, italic);
}

/** The font the page footer is drawn with. */
export function footerFont(): mupdf.Font {
  const font = fontOf("latin", false, false);
  if (font === null) throw new Error("Fonts are not prepared.");
  return font;
}
