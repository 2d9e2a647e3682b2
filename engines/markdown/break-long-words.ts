/**
 * Line-break opportunities inside words too long for a line. MuPDF's HTML layout breaks lines only
 * at spaces and draws a longer word past the right margin, where the page cuts it (measured: a
 * 200-character string in a code block ran 4 pt off an A4 page). Such words get a zero-width space
 * between their characters (grapheme clusters, so no Indic syllable is split), which MuPDF breaks
 * at; the PDF's text leaves those spaces out (glyph-text.ts), so copied text has none.
 */

/** Longest word left alone: a line of code (8.5 pt Noto Sans Mono) on A4 holds 94 characters. */
export const LONGEST_WORD = 60;

/** A text node of the sanitised tree. */
interface TextNode {
  data: string;
}
/** The walker over text nodes that jsdom's `document.createTreeWalker(root, SHOW_TEXT)` gives. */
export interface TextWalker {
  nextNode(): TextNode | null;
}

const LONG_WORD = new RegExp(`\\S{${LONGEST_WORD + 1},}`, "gu");
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

function breakable(word: string): string {
  return Array.from(graphemes.segment(word), (part) => part.segment).join("\u200B");
}

/** Breaks every long word of the text nodes the walker visits; returns how many it broke. */
export function breakLongWords(walker: TextWalker): number {
  let broken = 0;
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.data;
    if (text.length <= LONGEST_WORD) continue;
    const next = text.replace(LONG_WORD, (word) => {
      broken += 1;
      return breakable(word);
    });
    if (next !== text) node.data = next;
  }
  return broken;
}
