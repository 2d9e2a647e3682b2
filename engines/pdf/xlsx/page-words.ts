/**
 * The words and phrases of a page, from its structured text (structured-text.ts), in the form the
 * table finders use: boxes in points (origin top left), the font size, and bold.
 */
import type { Box, PageText } from "../structured-text.ts";
import { glyphGap, rightToLeft, textLines } from "../structured-text.ts";

export interface Word {
  readonly text: string;
  readonly box: Box;
  readonly size: number;
  readonly bold: boolean;
}

/**
 * A phrase: words of one line with ordinary spaces between them. A gap wider than
 * `PHRASE_GAP` × the font size (cell padding, tab stops) ends a phrase: that is how the columns of
 * a borderless table show in the text.
 */
export interface Phrase extends Word {
  readonly words: readonly Word[];
}

/** Word spaces measure 0.25–0.35 em, and up to ~0.6 em in justified prose; column gaps are wider. */
const PHRASE_GAP = 0.75;

/** Vertical (CJK vertical writing) and rotated lines are no part of a table's grid here. */
const isAcross = (line: { wmode: number; dir: readonly [number, number] }) =>
  line.wmode === 0 && Math.abs(line.dir[1]) <= 0.05 && line.dir[0] > 0;

/**
 * The text of the page's vertical and rotated lines, in reading order: kept with the page's
 * other text, outside the tables.
 */
export function crossLineTexts(page: PageText): string[] {
  return textLines(page)
    .filter((line) => !isAcross(line))
    .map((line) =>
      line.spans
        .map((span) => span.chars.map((char) => char.c).join(""))
        .join("")
        .trim(),
    )
    .filter((text) => text !== "");
}

/** The words of each horizontal text line of the page, left to right. */
export function lineWords(page: PageText): Word[][] {
  const lines: Word[][] = [];
  for (const line of textLines(page)) {
    if (!isAcross(line)) continue;
    const words: Word[] = [];
    let text = "";
    let box: [number, number, number, number] | null = null;
    let size = 0;
    let bold = false;
    let last: Box | null = null;
    const flush = () => {
      if (box !== null && text.trim() !== "") words.push({ text: text.trim(), box, size, bold });
      text = "";
      box = null;
    };
    for (const span of line.spans) {
      for (const char of span.chars) {
        // A gap without a space character (text placed by position) also separates words; in
        // right-to-left text, which comes in reading order, the next glyph may lie to the left.
        const gap = last === null ? 0 : glyphGap(last, char.box);
        if (char.c.trim() === "" || (box !== null && gap > span.size * 0.2)) flush();
        if (char.c.trim() !== "") {
          text += char.c;
          box =
            box === null
              ? [char.box[0], char.box[1], char.box[2], char.box[3]]
              : [
                  Math.min(box[0], char.box[0]),
                  Math.min(box[1], char.box[1]),
                  Math.max(box[2], char.box[2]),
                  Math.max(box[3], char.box[3]),
                ];
          size = Math.max(size, span.size);
          bold = bold || span.bold;
          last = char.box;
        }
      }
    }
    flush();
    if (words.length > 0) lines.push(words.sort((a, b) => a.box[0] - b.box[0]));
  }
  return lines;
}

/** Joins the words of one line into phrases at the wide gaps. */
export function phrasesOf(words: readonly Word[]): Phrase[] {
  const phrases: Phrase[] = [];
  let current: Word[] = [];
  const flush = () => {
    const first = current[0];
    if (first !== undefined) phrases.push(phraseOf(current));
    current = [];
  };
  for (const word of words) {
    const last = current.at(-1);
    const size = Math.max(word.size, last?.size ?? 0);
    if (last !== undefined && word.box[0] - last.box[2] > size * PHRASE_GAP) flush();
    current.push(word);
  }
  flush();
  return phrases;
}

/** The texts of words given left to right, joined in reading order (Arabic and Hebrew from the right). */
export function joinWords(words: readonly Word[]): string {
  const texts = words.map((word) => word.text);
  return (rightToLeft(texts.join("")) ? texts.reverse() : texts).join(" ");
}

export function phraseOf(words: readonly Word[]): Phrase {
  return {
    text: joinWords(words),
    box: [
      Math.min(...words.map((word) => word.box[0])),
      Math.min(...words.map((word) => word.box[1])),
      Math.max(...words.map((word) => word.box[2])),
      Math.max(...words.map((word) => word.box[3])),
    ],
    size: Math.max(...words.map((word) => word.size)),
    bold: words.every((word) => word.bold),
    words,
  };
}

export function centerX(box: Box): number {
  return (box[0] + box[2]) / 2;
}

export function centerY(box: Box): number {
  return (box[1] + box[3]) / 2;
}
