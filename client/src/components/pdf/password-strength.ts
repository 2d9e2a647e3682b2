/** How hard a password is to guess, in four steps a meter shows. */
export type PasswordStrength = "weak" | "fair" | "good" | "strong";

/**
 * Characters a guesser must try per position, by the kinds present: Latin lower and upper case,
 * digits, ASCII symbols, and letters of any other script (a Devanagari, Telugu or Tamil password
 * draws on a syllabary of about a hundred signs).
 */
const POOLS: readonly [RegExp, number][] = [
  [/[a-z]/, 26],
  [/[A-Z]/, 26],
  [/[0-9]/, 10],
  [/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e ]/, 33],
  [/[^\p{ASCII}]/u, 100],
];

/**
 * An estimate in bits: characters (user-perceived, so a Hindi conjunct counts once) times the
 * bits of the pool, counting each distinct character once more than its repeats would suggest.
 * It cannot see dictionary words: the meter says "weak" early rather than "strong" late.
 */
export function passwordBits(password: string): number {
  const characters = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(password)].map(
    (part) => part.segment,
  );
  if (characters.length === 0) return 0;
  const pool = POOLS.reduce((sum, [pattern, size]) => (pattern.test(password) ? sum + size : sum), 0);
  const distinct = new Set(characters).size;
  // Repeated characters add little: "aaaaaaaa" is about as strong as "a".
  const effective = Math.min(characters.length, distinct + (characters.length - distinct) / 4);
  return effective * Math.log2(Math.max(pool, 2));
}

/**
 * Steps of the meter, in estimated bits: each step is about 2^14 times more guesses than the one
 * before, from what an offline guesser tries quickly to what it cannot reach.
 */
export function passwordStrength(password: string): PasswordStrength {
  const bits = passwordBits(password);
  if (bits < 36) return "weak";
  if (bits < 50) return "fair";
  if (bits < 70) return "good";
  return "strong";
}

/** Bytes of UTF-8: PDF 2.0 uses a password's first 127 (contract MAX_PASSWORD_BYTES). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
