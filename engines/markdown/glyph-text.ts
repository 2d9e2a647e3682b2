/**
 * The text each drawn glyph stands for, worked out while a page is drawn: MuPDF's layout knows
 * the characters of each shaped cluster, its PDF writer does not. `recordGlyphs` keeps every glyph
 * with its cluster's characters; `textParts` cuts the glyphs of one show-text operation into parts,
 * left to right, each with the text a text extractor should read for it (actual-text.ts writes
 * them into the content stream).
 */
import * as mupdf from "mupdf";

export interface DrawnGlyph {
  readonly gid: number;
  /** The characters this glyph stands for in reading order ("" for the rest of a cluster). */
  text: string;
  /** The font's character map gives `text` back for this glyph (one character, its own glyph). */
  exact: boolean;
  /** Pen position, font size and advance, in page units: to redraw glyphs in visual order. */
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly advance: number;
  /** The font drawn with: its character map is what the written PDF maps the glyph back through. */
  readonly font: mupdf.Font;
  /** A zero-width space (a line-break opportunity, drawn as a space glyph moved back): no text. */
  readonly blank: boolean;
  /** Laid out right to left (an odd bidi level: Arabic, Hebrew), drawn in reading order leftwards. */
  readonly rtl: boolean;
}

const ZERO_WIDTH_SPACE = "\u200B";

/**
 * Shaping draws some glyphs left of glyphs that come before them (a pre-base vowel sign such as
 * Hindi ि or Tamil ை is moved back over its consonant). Text extractors read glyphs in drawing
 * order and break the word at such a jump back, or at the gap left for the moved glyph. So each
 * such cluster is given to its leftmost glyph as one text, the others keep none, and the content
 * stream later draws the cluster left to right (`leftToRight`).
 */
function mergeReordered(glyphs: DrawnGlyph[]) {
  for (let i = 1; i < glyphs.length; i++) {
    const glyph = glyphs[i];
    const previous = glyphs[i - 1];
    if (glyph === undefined || previous === undefined) continue;
    // A span can wrap onto the next line: only a step back on the same baseline counts.
    const sameLine = (other: DrawnGlyph | undefined) =>
      other !== undefined && Math.abs(other.y - glyph.y) < 0.5;
    // Right-to-left text steps back glyph after glyph: glyphs that are their own characters (Hebrew
    // letters, with the points mergeMarks gave them; not Arabic's joined forms, which the character
    // map does not describe) keep their text, after another such letter or a point it took.
    const ownLetters =
      glyph.rtl && previous.rtl && ownLetter(glyph) && (ownLetter(previous) || givenMark(previous));
    if (!sameLine(previous) || glyph.x >= previous.x - 0.25 || ownLetters) continue;
    let first = i - 1;
    while (first > 0 && sameLine(glyphs[first - 1]) && (glyphs[first - 1]?.x ?? 0) > glyph.x) first -= 1;
    const cluster = glyphs.slice(first, i + 1);
    glyph.text = cluster.map((member) => member.text).join("");
    for (const member of cluster) {
      if (member !== glyph) member.text = "";
      member.exact = false;
    }
  }
}

/** A mark of no width whose text mergeMarks gave to its letter. */
const givenMark = (glyph: DrawnGlyph) => glyph.advance <= 0.01 && glyph.text === "" && !glyph.blank;

/**
 * Whether `glyph` is its own character's glyph in its font's character map, or that character's
 * with the marks (points) mergeMarks gave it.
 */
function ownLetter(glyph: DrawnGlyph): boolean {
  if (glyph.exact) return true;
  const [first, ...marks] = glyph.text;
  return (
    first !== undefined &&
    marks.length > 0 &&
    marks.every((mark) => /\p{M}/u.test(mark)) &&
    glyph.font.encodeCharacter(first) === glyph.gid
  );
}

/**
 * A glyph of no width (a vowel sign, nasal or subscript consonant drawn over or under the glyph
 * before it) gives its text to the glyph before it that has text: MuPDF's extraction otherwise
 * starts a new word at the mark (measured: Hindi "हैं" came back as "ह ैं"), and Poppler takes a
 * character starting where the one before it starts for a duplicate and breaks the word there
 * (measured: Telugu "ఒత్తులు" came back as "ఒత్త ులు").
 */
function mergeMarks(glyphs: readonly DrawnGlyph[]) {
  let holder: DrawnGlyph | undefined;
  /** Right-to-left combining marks (Hebrew points), drawn before their letter: they wait for it. */
  let waiting: DrawnGlyph[] = [];
  const give = (marks: readonly DrawnGlyph[], to: DrawnGlyph) => {
    for (const mark of marks) {
      to.text += mark.text;
      mark.text = "";
      mark.exact = false;
    }
    if (marks.length > 0) to.exact = false;
  };
  for (const glyph of glyphs) {
    if (holder !== undefined && Math.abs(glyph.y - holder.y) >= 0.5) holder = undefined;
    if (waiting.some((mark) => Math.abs(glyph.y - mark.y) >= 0.5)) waiting = [];
    const mark = glyph.advance <= 0.01 && glyph.text !== "";
    if (mark && glyph.rtl && /^\p{M}+$/u.test(glyph.text)) waiting.push(glyph);
    else if (mark && holder !== undefined) give([glyph], holder);
    else if (!mark && glyph.rtl && glyph.text !== "") {
      give(waiting, glyph);
      waiting = [];
    }
    if (glyph.text !== "") holder = glyph;
  }
}

/** A device that records the glyphs of the text run through it, in drawing order. */
export function recordGlyphs(glyphs: DrawnGlyph[]): mupdf.Device {
  return new mupdf.Device({
    fillText(text) {
      // One text object holds many spans (words, lines): clusters never cross a span.
      const spans: DrawnGlyph[][] = [];
      text.walk({
        beginSpan() {
          spans.push([]);
        },
        showGlyph(font, trm, gid, unicode, _wmode, bidi) {
          const drawn = spans.at(-1);
          if (drawn === undefined) return;
          const char = unicode >= 0 ? String.fromCodePoint(unicode) : "";
          const last = drawn.at(-1);
          // A glyph id of -1 carries another character of the previous glyph's cluster.
          if (gid < 0) {
            if (last !== undefined) last.text += char;
            return;
          }
          const size = Math.hypot(trm[0], trm[1]);
          const blank = char === ZERO_WIDTH_SPACE;
          const exact = !blank && char !== "" && font.encodeCharacter(char) === gid;
          drawn.push({
            gid,
            text: blank ? "" : char,
            exact,
            blank,
            x: trm[4],
            y: trm[5],
            size,
            advance: font.advanceGlyph(gid) * size,
            font,
            rtl: bidi % 2 === 1,
          });
        },
      });
      for (const drawn of spans) {
        for (const glyph of drawn) if ([...glyph.text].length !== 1) glyph.exact = false;
        mergeMarks(drawn);
        mergeReordered(drawn);
        glyphs.push(...drawn);
      }
    },
  });
}

/**
 * The glyphs in drawing order from left to right. Glyphs that start within a quarter point of each
 * other (a subscript and a vowel sign under the same consonant) keep their order, which is the
 * text's.
 */
function leftToRight(glyphs: readonly DrawnGlyph[]): DrawnGlyph[] {
  const sorted: DrawnGlyph[] = [];
  for (const glyph of glyphs) {
    let at = sorted.length;
    while (at > 0 && (sorted[at - 1]?.x ?? 0) > glyph.x + 0.25) at -= 1;
    sorted.splice(at, 0, glyph);
  }
  return sorted;
}

/** Clusters left to right: a glyph with text and the glyphs without text after it. */
function clustersOf(visual: readonly DrawnGlyph[]): DrawnGlyph[][] {
  const clusters: DrawnGlyph[][] = [];
  for (const glyph of visual) {
    const current = clusters.at(-1);
    if (current === undefined || glyph.text !== "") clusters.push([glyph]);
    else current.push(glyph);
  }
  return clusters;
}

/**
 * Pieces of a cluster's text that can each stand for a glyph: each starts with a character that
 * is not a non-spacing mark (extractors put such a mark on the glyph before it and leave the pen
 * where it was; measured in MuPDF 1.28: a conjunct given only a virama broke the word in two).
 */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  for (const char of text) {
    const last = pieces.length - 1;
    if (last >= 0 && /\p{Mn}/u.test(char)) pieces[last] += char;
    else pieces.push(char);
  }
  return pieces;
}

/** Glyphs drawn together under one text. */
export interface Part {
  readonly glyphs: DrawnGlyph[];
  text: string;
}

/** The written PDF's own character map gives `text` back for this glyph. */
export function mapsTo(glyph: DrawnGlyph, text: string): boolean {
  return [...text].length === 1 && glyph.font.encodeCharacter(text) === glyph.gid;
}

/**
 * A cluster cut into parts whose texts, read left to right, give the cluster's text. MuPDF gives
 * each glyph of an ActualText span one character and moves its pen only over glyphs that got a
 * spacing one (a glyph left without one leaves a gap, and a gap of 0.8 em breaks the line), while
 * Poppler spreads a span's text over the span's glyphs and breaks the word at a glyph drawn with
 * no text. So each glyph with an advance carries a piece of the text of its own, and glyphs of no
 * width (marks) get spans of no text. A two-part vowel sign (Tamil ொ, drawn as ெ before the
 * consonant and ா after it) is three glyphs for two characters: its canonical decomposition
 * (ெ + ா, the same text to Unicode) gives the third piece. Should glyphs still outnumber pieces,
 * the narrowest are drawn in the part before them.
 */
function partsOf(cluster: readonly DrawnGlyph[]): Part[] {
  const text = cluster.map((glyph) => glyph.text).join("");
  const size = cluster[0]?.size ?? 1;
  const spacing = (glyph: DrawnGlyph) => !glyph.blank && glyph.advance > 0.05 * size;
  const advancing = cluster.filter(spacing);
  let pieces = piecesOf(text);
  if (pieces.length < advancing.length) {
    const decomposed = piecesOf(text.normalize("NFD"));
    if (decomposed.length > pieces.length) pieces = decomposed;
  }
  const carriers = new Set(
    advancing.length === 0
      ? cluster.slice(0, 1)
      : [...advancing].sort((a, b) => b.advance - a.advance).slice(0, Math.max(1, pieces.length)),
  );
  const parts: Part[] = [];
  const carried: Part[] = [];
  let leading: DrawnGlyph[] = [];
  for (const glyph of cluster) {
    if (carriers.has(glyph)) {
      const part = { glyphs: [...leading, glyph], text: pieces[carried.length] ?? "" };
      leading = [];
      parts.push(part);
      carried.push(part);
    } else if (!spacing(glyph)) parts.push({ glyphs: [glyph], text: "" });
    else if (carried.length === 0) leading.push(glyph);
    else carried.at(-1)?.glyphs.push(glyph);
  }
  const last = carried.at(-1);
  if (last !== undefined) last.text = [last.text, ...pieces.slice(carried.length)].join("");
  return parts;
}

/**
 * MuPDF matches the end of an ActualText against the last glyph's own character and, when they
 * match, loses the rest of the text (measured: Hindi "र्भ", drawn as भ with a reph mark, came back
 * as "भ"). Such a part keeps its glyph's own character, and the characters before it go to the
 * end of the part before, which reads the same.
 */
function avoidEndMatches(parts: readonly Part[]) {
  let previous: Part | undefined;
  for (const part of parts) {
    const glyph = part.glyphs.at(-1);
    const chars = [...part.text];
    const lastChar = chars.at(-1);
    if (glyph !== undefined && lastChar !== undefined && chars.length > 1 && mapsTo(glyph, lastChar)) {
      if (previous !== undefined) {
        previous.text += chars.slice(0, -1).join("");
        part.text = lastChar;
      }
    }
    if (part.text !== "") previous = part;
  }
}

/** The glyphs of one show-text operation as parts with their text, left to right. */
export function textParts(glyphs: readonly DrawnGlyph[]): Part[] {
  const parts = clustersOf(leftToRight(glyphs)).flatMap(partsOf);
  avoidEndMatches(parts);
  return parts;
}
