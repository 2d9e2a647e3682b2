/**
 * Indic text in logical order. Some PDF producers map each glyph to its character in visual
 * order, so a vowel sign drawn left of its consonant (Devanagari ि, Tamil ெ ே ை, and the like)
 * comes out before the consonant: "िक" instead of "कि". A pre-base vowel sign can never start a
 * syllable in logical order, so when a document has one where no consonant precedes it, its text
 * is in visual order and every pre-base sign is moved after the consonant cluster that follows it.
 */

/** Vowel signs written before their consonant, per script. */
const PRE_BASE = /[\u093F\u09BF\u09C7\u09C8\u0A3F\u0ABF\u0B47\u0BC6-\u0BC8\u0D46-\u0D48\u0DD9-\u0DDB]/u;
const PRE_BASE_G = new RegExp(PRE_BASE.source, "gu");
/** Consonants of the Indic blocks (Devanagari to Malayalam/Sinhala). */
const CONSONANT =
  /[\u0915-\u0939\u0958-\u095F\u0995-\u09B9\u0A15-\u0A39\u0A95-\u0AB9\u0B15-\u0B39\u0B95-\u0BB9\u0C15-\u0C39\u0C95-\u0CB9\u0D15-\u0D3A\u0D9A-\u0DC6]/u;
/** Virama and nukta signs, which join consonants into one cluster. */
const JOINER =
  /[\u094D\u093C\u09CD\u09BC\u0A4D\u0A3C\u0ACD\u0ABC\u0B4D\u0B3C\u0BCD\u0C4D\u0CCD\u0D4D\u0DCA]/u;

/** Whether the texts show pre-base vowel signs in visual order. */
export function inVisualOrder(texts: Iterable<string>): boolean {
  for (const text of texts) {
    if (!PRE_BASE.test(text)) continue;
    for (const match of text.matchAll(PRE_BASE_G)) {
      const before = text[(match.index ?? 0) - 1] ?? " ";
      if (!CONSONANT.test(before) && !JOINER.test(before)) return true;
    }
  }
  return false;
}

/** `text` with each pre-base vowel sign moved after the consonant cluster that follows it. */
export function toLogicalOrder(text: string): string {
  if (!PRE_BASE.test(text)) return text;
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? "";
    if (!PRE_BASE.test(char) || !CONSONANT.test(chars[i + 1] ?? "")) {
      out.push(char);
      continue;
    }
    let end = i + 2;
    while (JOINER.test(chars[end] ?? "") && CONSONANT.test(chars[end + 1] ?? "")) end += 2;
    while (JOINER.test(chars[end] ?? "") && !CONSONANT.test(chars[end + 1] ?? "")) end += 1;
    out.push(...chars.slice(i + 1, end), char);
    i = end - 1;
  }
  // Two-part vowel signs (Tamil ொ = ெ + ா) compose again once in logical order.
  return out.join("").normalize("NFC");
}
