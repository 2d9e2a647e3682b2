/**
 * Text drawn with the faces that have it, named in the HTML. Each run of characters the text fonts
 * lack (✓ ★ ⚠ 😀 …) is wrapped in a span naming the symbol or emoji face that has them, and each
 * run of Devanagari, Tamil, Telugu, Arabic, Hebrew, Thai or Bengali in a span naming its script's face (fonts.ts), grapheme by
 * grapheme so emoji sequences (👍🏽) and syllables stay whole. Characters no bundled font has are
 * left as they are.
 */
import { fallbackFamily, scriptFamily } from "./fonts.ts";

/** A text node of the sanitised tree, and what replacing it needs. */
export interface FallbackTextNode {
  data: string;
  replaceWith(...nodes: (FallbackElement | string)[]): void;
}
interface FallbackElement {
  className: string;
  textContent: string | null;
}
interface FallbackDocument {
  createElement(tag: "span"): FallbackElement;
}

/**
 * Characters that may need a fallback font: symbols, emoji and pictographs, and the Latin letters
 * with stacked marks of Latin Extended Additional (Vietnamese: ệ ắ ự), which MuPDF's fallback for
 * the Latin script (the Latin Extended part) lacks.
 */
const CANDIDATE = /[\p{S}\p{Extended_Pictographic}\u1E00-\u1EFF]/u;
/** Text that may need a face of its own: the candidates and the named scripts. */
const NAMED =
  /[\p{S}\p{Extended_Pictographic}\u1E00-\u1EFF\p{Script=Devanagari}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Bengali}]/u;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Wraps the characters of `nodes` that need a face named; returns how many symbol graphemes. */
export function markFallbackGlyphs(nodes: readonly FallbackTextNode[], document: FallbackDocument): number {
  let marked = 0;
  for (const node of nodes) {
    if (!NAMED.test(node.data)) continue;
    // Consecutive graphemes of one family share a span; the others stay text.
    const runs: { family: string | null; text: string }[] = [];
    for (const { segment } of graphemes.segment(node.data)) {
      const last = runs.at(-1);
      const symbol = CANDIDATE.test(segment) ? fallbackFamily(segment) : null;
      if (symbol !== null) marked += 1;
      const family = symbol ?? scriptFamily(segment, last?.family ?? null);
      if (last?.family === family) last.text += segment;
      else runs.push({ family, text: segment });
    }
    const parts = runs.map(({ family, text }) => {
      if (family === null) return text;
      const span = document.createElement("span");
      span.className = family;
      span.textContent = text;
      return span;
    });
    if (parts.some((part) => typeof part !== "string")) node.replaceWith(...parts);
  }
  return marked;
}
