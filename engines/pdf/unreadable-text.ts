/**
 * Text a PDF holds but nobody can read: fonts without a usable Unicode mapping give their glyphs
 * as U+FFFD, as private-use code points or as control characters, so a conversion shows "����"
 * where the page shows words. Such a page is found from its extracted text alone.
 */
import { type PageBlock, type PageText, type TextLine, unionBox } from "./structured-text.ts";

/** U+FFFD, private use (BMP and planes 15–16), and controls (white space is skipped before). */
function carriesNoLetter(code: number): boolean {
  return (
    code === 0xfffd ||
    (code >= 0xe000 && code <= 0xf8ff) ||
    code >= 0xf0000 ||
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f)
  );
}

/** A page is unreadable when at least this share of its visible characters is. */
const UNREADABLE_SHARE = 0.5;
/** …and they are at least this many (a few symbol-font bullets are not a page of garbage). */
const MIN_UNREADABLE = 10;

/** Whether the text of these lines (one page's) is mostly characters that carry no letters. */
export function unreadableText(lines: readonly Pick<TextLine, "text">[]): boolean {
  let visible = 0;
  let unreadable = 0;
  for (const line of lines) {
    for (const char of line.text) {
      if (/\s/u.test(char)) continue;
      visible++;
      if (carriesNoLetter(char.codePointAt(0) ?? 0)) unreadable++;
    }
  }
  return unreadable >= MIN_UNREADABLE && unreadable >= visible * UNREADABLE_SHARE;
}

/** The page with only the text drawn in `font` (another text layer's, e.g. OCR's), images kept. */
export function onlyTextInFont(page: PageText, font: string): PageText {
  const blocks = page.blocks.flatMap((block): PageBlock[] => {
    if (block.type !== "text") return [block];
    const lines = block.lines.flatMap((line) => {
      const spans = line.spans.filter((span) => span.font === font);
      if (spans.length === 0) return [];
      const text = spans.map((span) => span.text).join("");
      return [{ ...line, spans, text, box: unionBox(spans.map((span) => span.box)) }];
    });
    return lines.length === 0 ? [] : [{ ...block, lines, box: unionBox(lines.map((line) => line.box)) }];
  });
  return { ...page, blocks };
}
