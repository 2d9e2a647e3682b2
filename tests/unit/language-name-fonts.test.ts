/**
 * The language names' fonts (scripts/language-name-fonts.ts): each is a few KB and shapes every
 * name written in its script exactly as the full Noto face does (same glyph count and advances,
 * no missing glyph), so the selector's names look the same without the whole font.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as hb from "harfbuzzjs";
import { beforeAll, describe, expect, it } from "vitest";
import { decompress } from "wawoff2";
import {
  languageNameFontFile,
  namesIn,
  SOURCES,
  writeLanguageNameFonts,
} from "../../scripts/language-name-fonts.ts";

const require = createRequire(import.meta.url);

async function shape(woff2: Uint8Array, text: string): Promise<{ glyphs: number[]; advances: number[] }> {
  const ttf = await decompress(woff2);
  const font = new hb.Font(new hb.Face(new hb.Blob(new Uint8Array(ttf))));
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  return {
    glyphs: buffer.getGlyphInfos().map((info) => info.codepoint),
    advances: buffer.getGlyphPositions().map((position) => position.xAdvance),
  };
}

beforeAll(async () => {
  await writeLanguageNameFonts();
});

describe.each(Object.keys(SOURCES) as (keyof typeof SOURCES)[])("the %s names font", (script) => {
  it("holds every name of its script, shaped as the full face shapes it, in a few KB", async () => {
    const names = namesIn(script);
    expect(names.length).toBeGreaterThan(0);
    const file = languageNameFontFile(script);
    expect(statSync(file).size).toBeLessThan(8 * 1024);
    const subset = await shape(readFileSync(file), names);
    const full = await shape(readFileSync(require.resolve(SOURCES[script])), names);
    expect(subset.glyphs).not.toContain(0);
    expect(subset.glyphs.length).toBe(full.glyphs.length);
    expect(subset.advances).toEqual(full.advances);
  });
});
