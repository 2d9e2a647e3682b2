import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { CODE_BACKGROUND, TOKEN_COLOURS } from "../../engines/markdown/pdf-style.ts";
import { hasPdftotext, popplerText } from "../support/script-text.ts";
import { openPdf } from "./fixtures.ts";
import { convert } from "./markdown-convert.ts";

/** Each character MuPDF extracts from page 1, with its colour as #rrggbb and its box. */
function drawnChars(bytes: Uint8Array) {
  const chars: { c: string; colour: string; x0: number; x1: number }[] = [];
  const hex = (value: number) =>
    Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  openPdf(bytes)
    .loadPage(0)
    .toStructuredText("preserve-whitespace")
    .walk({
      onChar(c, _origin, _font, _size, quad, color) {
        const colour = `#${color.map(hex).join("")}`;
        chars.push({ c, colour, x0: Math.min(quad[0], quad[4]), x1: Math.max(quad[2], quad[6]) });
      },
    });
  return chars;
}

/** The colour of the characters of `word` where it first appears. */
function colourOf(chars: ReturnType<typeof drawnChars>, word: string): string | undefined {
  const text = chars.map((char) => char.c).join("");
  const at = text.indexOf(word);
  return at < 0 ? undefined : chars[at]?.colour;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, bl = 0] = [1, 3, 5].map((at) => {
      const channel = Number.parseInt(colour.slice(at, at + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

const CODE = `\`\`\`ts
// greets someone
export function greet(name: string): number {
  return "hello";
}
\`\`\`

\`\`\`
export function plain() {}
\`\`\`

\`\`\`klingon
export function unknown() {}
\`\`\`
`;

describe("Markdown to PDF code blocks", () => {
  it("colours code by the fence's language and leaves other code plain", async () => {
    const chars = drawnChars((await convert(CODE)).bytes);
    expect(colourOf(chars, "export function greet")).toBe("#cf222e");
    expect(colourOf(chars, "greet(")).toBe("#6639ba");
    expect(colourOf(chars, '"hello"')).toBe("#0a3069");
    expect(colourOf(chars, "// greets someone")).toBe("#59636e");
    const body = colourOf(chars, "export function plain");
    expect(body).toBe("#1f2328");
    expect(colourOf(chars, "plain()")).toBe(body);
    expect(colourOf(chars, "export function unknown")).toBe(body);
  });

  it("colours every token with a contrast of at least 4.5:1 on the code background", () => {
    for (const colour of Object.keys(TOKEN_COLOURS))
      expect(contrast(colour, CODE_BACKGROUND), colour).toBeGreaterThanOrEqual(4.5);
  });

  it("wraps long code lines and words inside the margins, and copies them whole", async () => {
    const token = "abcdefghij".repeat(25);
    const markdown = `\`\`\`js\nconst sentence = "This line of code is deliberately long, so long that it has to wrap at the margin of the page.";\nconst token = "${token}";\n\`\`\`\n\nA long address in prose: https://example.org/${"segment/".repeat(20)}end`;
    const output = await convert(markdown);
    const chars = drawnChars(output.bytes);
    const [, , width] = openPdf(output.bytes).loadPage(0).getBounds();
    // Nothing drawn past the right margin (51 pt).
    expect(Math.max(...chars.map((char) => char.x1))).toBeLessThanOrEqual(width - 40);
    const joined = (text: string) => text.replaceAll(/\s+/g, "");
    const mupdfText = chars.map((char) => char.c).join("");
    expect(mupdfText).not.toContain("\u200B");
    expect(joined(mupdfText)).toContain(`consttoken="${token}";`);
    expect(joined(mupdfText)).toContain(`https://example.org/${"segment/".repeat(20)}end`);
    if (hasPdftotext) {
      const poppler = popplerText(output.bytes);
      expect(poppler).not.toContain("\u200B");
      expect(joined(poppler)).toContain(`consttoken="${token}";`);
    }
    mupdf.emptyStore();
  });
});

describe("Markdown to PDF symbols and emoji", () => {
  const SYMBOLS = ["✓", "★", "→", "⚠", "€", "₹", "♥", "☎", "😀", "🎉", "👍🏽", "🚀"];

  it("draws symbols and emoji the text fonts lack, and they copy back", async () => {
    const output = await convert(`Symbols: ${SYMBOLS.join(" ")} and \`code ✓\`.`);
    const page = openPdf(output.bytes).loadPage(0);
    const scale = 3;
    const pixmap = page.toPixmap([scale, 0, 0, scale, 0, 0], mupdf.ColorSpace.DeviceGray, false);
    const pixels = pixmap.getPixels();
    const stride = pixmap.getStride();
    const inked = (quad: mupdf.Quad) => {
      const [x0, y0, x1, y1] = [quad[0], quad[1], quad[6], quad[7]].map((value) => Math.round(value * scale));
      let dark = 0;
      for (let y = y0 ?? 0; y < (y1 ?? 0); y++)
        for (let x = x0 ?? 0; x < (x1 ?? 0); x++) if ((pixels[y * stride + x] ?? 255) < 192) dark += 1;
      return dark;
    };
    // Keyed by the low 16 bits: mupdf.js's walker passes each character through fromCharCode,
    // which cuts an emoji's code point (U+1F600 comes as U+F600).
    const drawn = new Map<number, number>();
    page.toStructuredText("preserve-whitespace").walk({
      onChar(c, _origin, _font, _size, quad) {
        const key = c.charCodeAt(0);
        if (!/[\p{L}\p{N}\s.:`]/u.test(c)) drawn.set(key, Math.max(drawn.get(key) ?? 0, inked(quad)));
      },
    });
    for (const symbol of SYMBOLS) {
      // A glyph a font lacks is drawn blank (MuPDF reports no error): its box must hold ink.
      expect(drawn.get((symbol.codePointAt(0) ?? 0) & 0xffff) ?? 0, symbol).toBeGreaterThan(10);
    }
    const text = page.toStructuredText("preserve-whitespace").asText();
    expect(text).not.toContain("\uFFFD");
    for (const symbol of SYMBOLS) expect(text).toContain(symbol);
    expect(text).toContain("code ✓");
    if (hasPdftotext) {
      const poppler = popplerText(output.bytes);
      for (const symbol of SYMBOLS) expect(poppler, symbol).toContain(symbol);
    }
  });
});

/** The characters every page draws with glyph 0 (.notdef: a box or nothing), as MuPDF runs them. */
function notdefCharacters(bytes: Uint8Array): string[] {
  const document = openPdf(bytes);
  const missing = new Set<string>();
  const device = new mupdf.Device({
    fillText(text) {
      text.walk({
        showGlyph(_font, _trm, glyph, unicode) {
          if (glyph === 0 && unicode > 0x20) missing.add(String.fromCodePoint(unicode));
        },
      });
    },
  });
  for (let i = 0; i < document.countPages(); i++) document.loadPage(i).run(device, mupdf.Matrix.identity);
  return [...missing];
}

describe("Latin letters beyond the Latin faces", () => {
  it("draws Vietnamese letters with stacked marks, in regular, bold and italic, and they copy back", async () => {
    const sentence = "Tiếng Việt có nhiều dấu thanh: ắ ề ỗ ự ỹ Ở";
    const output = await convert(`# ${sentence}\n\n${sentence}\n\n*${sentence}*\n`);
    expect(notdefCharacters(output.bytes)).toEqual([]);
    const text = openPdf(output.bytes).loadPage(0).toStructuredText("preserve-whitespace").asText();
    expect(text.normalize("NFC").split(sentence).length - 1).toBe(3);
    if (hasPdftotext) expect(popplerText(output.bytes).normalize("NFC")).toContain(sentence);
  });
});

describe("scripts beyond the site's languages", () => {
  const SENTENCES = {
    arabic: "اللغة العربية جميلة جدا",
    hebrew: "עברית היא שפה שמית",
    thai: "ภาษาไทยเป็นภาษาที่สวยงาม",
    bengali: "বাংলা একটি সুন্দর ভাষা",
  };
  for (const [script, sentence] of Object.entries(SENTENCES)) {
    it(`draws ${script} in regular and bold with no missing glyph, and every letter copies back`, async () => {
      const output = await convert(`# ${sentence}\n\n${sentence} (1, 2, 3)\n\n**${sentence}**\n`);
      expect(notdefCharacters(output.bytes)).toEqual([]);
      const text = openPdf(output.bytes).loadPage(0).toStructuredText("preserve-whitespace").asText();
      const letters = (value: string) =>
        [...value.normalize("NFC").replace(/[^\p{L}\p{M}]/gu, "")].sort().join("");
      expect(letters(text)).toBe(letters(sentence.repeat(3)));
      // Poppler copies right-to-left runs (drawn in visual order) in an order of its own: its
      // letters are checked, not their order.
      if (hasPdftotext) expect(letters(popplerText(output.bytes))).toBe(letters(sentence.repeat(3)));
    });
  }
});

describe("right-to-left text", () => {
  it("copies Hebrew back in reading order, in MuPDF and pdftotext, beside left-to-right text", async () => {
    const hebrew = "עברית היא שפה שמית";
    const output = await convert(`${hebrew}\n\nMixed: English then ${hebrew} then English.\n`);
    const squeeze = (text: string) => text.replace(/[\s\u200e\u200f\u202a-\u202e]+/g, " ");
    const text = squeeze(openPdf(output.bytes).loadPage(0).toStructuredText("preserve-whitespace").asText());
    expect(text).toContain(hebrew);
    if (hasPdftotext) expect(squeeze(popplerText(output.bytes))).toContain(hebrew);
  });
  it("copies pointed Hebrew (niqqud) back in reading order in MuPDF, each point with its letter", async () => {
    // MuPDF's layout draws a Hebrew letter and then its points (glyphs of no width with their own
    // characters, as Arabic harakat): mergeMarks gives the points to the letter before them.
    const pointed = "בְּרֵאשִׁית בָּרָא שָׁלוֹם".normalize("NFD");
    const output = await convert(`${pointed}\n`);
    // The shaper may order a letter's points otherwise (dagesh before sheva): the same text (NFD).
    const squeeze = (text: string) => text.replace(/[\s\u200e\u200f\u202a-\u202e]+/g, " ").normalize("NFD");
    const text = squeeze(openPdf(output.bytes).loadPage(0).toStructuredText("preserve-whitespace").asText());
    expect(text).toContain(pointed);
    if (hasPdftotext) {
      // Poppler lays an ActualText's characters out left to right and reverses right-to-left runs,
      // so a pointed letter reads points first there (MuPDF reads the span as written: the two
      // need opposite orders). The letters' order and every point are checked.
      const poppler = squeeze(popplerText(output.bytes));
      const bare = (value: string) => value.replace(/\p{M}/gu, "");
      expect(bare(poppler)).toContain(bare(pointed));
      const marks = (value: string) => [...value.replace(/\P{M}/gu, "")].sort().join("");
      expect(marks(poppler)).toBe(marks(pointed));
    }
  });
});

describe("Arabic reading order", () => {
  it("copies Arabic back as written (joined forms, lam-alef, a heading, beside English) in MuPDF and pdftotext", async () => {
    const paragraph = "اللغة العربية جميلة جدا";
    const heading = "مرحبا بالعالم";
    const lamAlef = "لا إله إلا الله";
    const output = await convert(
      `# ${heading}\n\n${paragraph}\n\nMixed: English then ${paragraph} then English.\n\n${lamAlef}\n\nمَرْحَبًا بِكُمْ\n\nالعدد ١٢٣\n`,
    );
    const squeeze = (text: string) => text.replace(/[\s\u200e\u200f\u202a-\u202e]+/g, " ");
    const text = squeeze(openPdf(output.bytes).loadPage(0).toStructuredText("preserve-whitespace").asText());
    for (const line of [heading, paragraph, `${paragraph} then English`, lamAlef])
      expect(text).toContain(line);
    expect(text.split(paragraph).length - 1).toBe(2);
    // Harakat stay on their letters in MuPDF (Poppler lays an ActualText's characters out left to
    // right, so a letter with its mark reads mark first there: not checked).
    expect(text).toContain("مَرْحَبًا بِكُمْ");
    // Arabic-Indic digits are not read as the Persian ones (۱ U+06F1 shares ١'s glyph).
    expect(text).toContain("١٢٣");
    if (hasPdftotext) {
      const poppler = squeeze(popplerText(output.bytes));
      for (const line of [heading, paragraph, lamAlef]) expect(poppler).toContain(line);
      expect(poppler.split(paragraph).length - 1).toBe(2);
      expect(poppler).toContain("١٢٣");
    }
  });
});
