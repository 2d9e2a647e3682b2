/**
 * Accents drawn as glyphs of their own (TeX's \"o draws "¨" over "o"): a diacritic that sits over
 * (or, for a cedilla or ogonek, under) a neighbouring letter of the same line is combined with it
 * into one character, the precomposed one where Unicode has it ("ö"), with nothing between them.
 * A diacritic beside a letter rather than over it ("x^2", "~/path" in code) is left alone.
 */
import { type TextChar, type TextSpan, unionBox } from "../structured-text.ts";

/** Spacing diacritics (and combining marks) as the combining mark they stand for. */
const MARKS: Readonly<Record<string, string>> = {
  "\u0060": "\u0300",
  "\u02CB": "\u0300",
  "\u00B4": "\u0301",
  "\u02CA": "\u0301",
  "\u005E": "\u0302",
  "\u02C6": "\u0302",
  "\u007E": "\u0303",
  "\u02DC": "\u0303",
  "\u00AF": "\u0304",
  "\u02C9": "\u0304",
  "\u02D8": "\u0306",
  "\u02D9": "\u0307",
  "\u00A8": "\u0308",
  "\u02DA": "\u030A",
  "\u02DD": "\u030B",
  "\u02C7": "\u030C",
  "\u00B8": "\u0327",
  "\u02DB": "\u0328",
};
/** Marks drawn under the letter. */
const BELOW = new Set(["\u0327", "\u0328"]);
/** Dotless letters take their dot back under an accent (\'{\i} is "í"). */
const DOTLESS: Readonly<Record<string, string>> = { "\u0131": "i", "\u0237": "j" };

function markOf(c: string): string | null {
  return MARKS[c] ?? (/^[\u0300-\u036F]$/u.test(c) ? c : null);
}

/**
 * The spans with each diacritic glyph that lies over a letter beside it (before or after, in
 * the line's order) folded into that letter.
 */
export function combineAccents(spans: readonly TextSpan[]): TextSpan[] {
  const chars = spans.flatMap((span, s) => span.chars.map((char, i) => ({ char, s, i })));
  if (!chars.some(({ char }) => markOf(char.c) !== null)) return [...spans];
  const replaced = new Map<TextChar, TextChar | null>();
  chars.forEach(({ char }, k) => {
    const mark = markOf(char.c);
    if (mark === null || replaced.has(char)) return;
    const base = [chars[k - 1]?.char, chars[k + 1]?.char]
      .filter((c): c is TextChar => c !== undefined && /^\p{L}/u.test(c.c) && !replaced.has(c))
      .map((c) => ({ c, cover: coverage(char, c, mark) }))
      .filter((candidate) => candidate.cover >= 0.5)
      .sort((a, b) => b.cover - a.cover)[0]?.c;
    if (base === undefined) return;
    const letter = DOTLESS[base.c] !== undefined && !BELOW.has(mark) ? (DOTLESS[base.c] ?? base.c) : base.c;
    replaced.set(base, { ...base, c: `${letter}${mark}`.normalize("NFC") });
    replaced.set(char, null);
  });
  if (replaced.size === 0) return [...spans];
  return spans.flatMap((span) => {
    if (!span.chars.some((char) => replaced.has(char))) return [span];
    const kept = span.chars.flatMap((char) => {
      const next = replaced.get(char);
      return next === undefined ? [char] : next === null ? [] : [next];
    });
    if (kept.length === 0) return [];
    return [
      { ...span, chars: kept, text: kept.map((c) => c.c).join(""), box: unionBox(kept.map((c) => c.box)) },
    ];
  });
}

/**
 * How much the diacritic sits on the letter: the share of the narrower of the two widths that
 * they overlap, or 0 when the diacritic is not above the letter's middle (below it for a
 * cedilla or ogonek).
 */
function coverage(accent: TextChar, letter: TextChar, mark: string): number {
  const middle = (letter.box[1] + letter.box[3]) / 2;
  const accentMiddle = (accent.box[1] + accent.box[3]) / 2;
  if (BELOW.has(mark) ? accentMiddle < middle : accentMiddle > middle) return 0;
  const overlap = Math.min(accent.box[2], letter.box[2]) - Math.max(accent.box[0], letter.box[0]);
  const narrower = Math.min(accent.box[2] - accent.box[0], letter.box[2] - letter.box[0]);
  return narrower <= 0 ? 0 : overlap / narrower;
}
