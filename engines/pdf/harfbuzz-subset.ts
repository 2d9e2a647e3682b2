import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** The exports of HarfBuzz's subsetter build (harfbuzzjs/dist/harfbuzz-subset.wasm) used here. */
export interface HarfBuzz {
  readonly memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const MEMORY_MODE_READONLY = 1;
const SETS_DROP_TABLE_TAG = 3;
/** hb-subset flags: glyph ids may stay where they are, glyph names (post, CFF charset) are kept. */
const FLAG_NO_HINTING = 1 << 0;
const FLAG_RETAIN_GIDS = 1 << 1;
const FLAG_NOTDEF_OUTLINE = 1 << 6;
const FLAG_GLYPH_NAMES = 1 << 7;
const FLAG_NO_LAYOUT_CLOSURE = 1 << 9;
/**
 * Tables a PDF viewer never reads from an embedded font (it takes glyphs by id or code, not by
 * shaping): the shaping and layout tables, kerning, bitmaps, colour layers and signatures.
 */
const DROPPED_TABLES = [
  "GSUB",
  "GPOS",
  "GDEF",
  "BASE",
  "JSTF",
  "MATH",
  "kern",
  "morx",
  "mort",
  "kerx",
  "feat",
  "DSIG",
  "EBDT",
  "EBLC",
  "EBSC",
  "CBDT",
  "CBLC",
  "sbix",
  "COLR",
  "CPAL",
  "SVG ",
  "hdmx",
  "VDMX",
  "LTSH",
  "PCLT",
];

let loading: Promise<HarfBuzz> | undefined;
/**
 * `WebAssembly.instantiate` on bytes, as Node has it (engines/ is type-checked with the Workers
 * type library too, which declares only the form taking a compiled module).
 */
const instantiate = WebAssembly.instantiate as unknown as (
  bytes: Uint8Array,
  imports: object,
) => Promise<{ instance: WebAssembly.Instance }>;

/** Loads HarfBuzz's subsetter (WASM, a few hundred KB) once per process. */
export function loadHarfBuzz(): Promise<HarfBuzz> {
  loading ??= (async () => {
    const path = createRequire(import.meta.url).resolve("harfbuzzjs/dist/harfbuzz-subset.wasm");
    const { instance } = await instantiate(await readFile(path), {});
    const exports = instance.exports as unknown as HarfBuzz;
    exports._initialize();
    return exports;
  })();
  return loading;
}

export function tag(name: string): number {
  return [...name].reduce((value, char) => ((value << 8) | char.charCodeAt(0)) >>> 0, 0);
}

/**
 * An OpenType/TrueType font cut by HarfBuzz to the glyph ids `glyphs` (with .notdef), every glyph
 * keeping its name, with `retainGids` its id too (else the glyphs kept are numbered densely in
 * their order), and with `hinting` its hinting instructions and tables; null when HarfBuzz refuses
 * the font.
 */
export function subsetSfnt(
  harfBuzz: HarfBuzz,
  font: Uint8Array,
  glyphs: Iterable<number>,
  { hinting, retainGids }: { readonly hinting: boolean; readonly retainGids: boolean },
): Uint8Array | null {
  const input = harfBuzz.hb_subset_input_create_or_fail();
  if (input === 0) return null;
  const data = harfBuzz.malloc(font.length);
  let face = 0;
  let result = 0;
  try {
    new Uint8Array(harfBuzz.memory.buffer).set(font, data);
    const blob = harfBuzz.hb_blob_create(data, font.length, MEMORY_MODE_READONLY, 0, 0);
    face = harfBuzz.hb_face_create(blob, 0);
    harfBuzz.hb_blob_destroy(blob);
    const glyphSet = harfBuzz.hb_subset_input_glyph_set(input);
    harfBuzz.hb_set_add(glyphSet, 0);
    for (const glyph of glyphs) harfBuzz.hb_set_add(glyphSet, glyph);
    const dropped = harfBuzz.hb_subset_input_set(input, SETS_DROP_TABLE_TAG);
    for (const name of DROPPED_TABLES) harfBuzz.hb_set_add(dropped, tag(name));
    harfBuzz.hb_subset_input_set_flags(
      input,
      harfBuzz.hb_subset_input_get_flags(input) |
        (retainGids ? FLAG_RETAIN_GIDS : 0) |
        FLAG_NOTDEF_OUTLINE |
        FLAG_GLYPH_NAMES |
        FLAG_NO_LAYOUT_CLOSURE |
        (hinting ? 0 : FLAG_NO_HINTING),
    );
    result = harfBuzz.hb_subset_or_fail(face, input);
    if (result === 0) return null;
    const out = harfBuzz.hb_face_reference_blob(result);
    try {
      const length = harfBuzz.hb_blob_get_length(out);
      const at = harfBuzz.hb_blob_get_data(out, 0);
      return length === 0 ? null : new Uint8Array(harfBuzz.memory.buffer, at, length).slice();
    } finally {
      harfBuzz.hb_blob_destroy(out);
    }
  } finally {
    if (result !== 0) harfBuzz.hb_face_destroy(result);
    if (face !== 0) harfBuzz.hb_face_destroy(face);
    harfBuzz.hb_subset_input_destroy(input);
    harfBuzz.free(data);
  }
}
