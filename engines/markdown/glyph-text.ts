/**
 * The text each drawn glyph stands for, worked out while a page is drawn: MuPDF's layout knows
 * the characters of each shaped cluster, its PDF writer does not. `recordGlyphs` keeps every glyph
 * with its cluster's characters; `textParts` cuts the glyphs of one show-text operation into parts,
 * left to right (right-to-left runs in reading order), each with the text a text extractor should read for it (actual-text.ts writes
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
 * Each glyph's character back, per font. MuPDF hands the recorder a new Font object per text
 * object around the same font: the map is kept by the font's address and name (the faces drawn
 * with live as long as the process), and dropped whole should many fonts come and go.
 */
const backMaps = new Map<string, Map<number, number>>();

/**
 * The font's character map takes `char` to `gid`, and the written PDF maps `gid` back to `char`.
 * MuPDF's PDF writer maps a glyph back to the highest character (of the Basic Multilingual Plane)
 * its character map takes there (measured: pdftotext read the Arabic alef ا as its isolated form
 * U+FE8D, "ﺍللغة" for "اللغة", and the digit ١ as the Persian ۱ U+06F1), so a glyph a later
 * character also reaches is not its own.
 */
function ownGlyph(font: mupdf.Font, char: string, gid: number): boolean {
  if (font.encodeCharacter(char) !== gid) return false;
  const key = `${font.pointer}:${font.getName()}`;
  let back = backMaps.get(key);
  if (back === undefined) {
    if (backMaps.size >= 64) backMaps.clear();
    back = new Map();
    for (let code = 0x20; code <= 0xffff; code++) {
      const reached = font.encodeCharacter(code);
      if (reached > 0) back.set(reached, code);
    }
    backMaps.set(key, back);
  }
  return back.get(gid) === char.codePointAt(0);
}

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
    // Right-to-left text steps back glyph after glyph in reading order, each glyph with its own
    // cluster's text (a Hebrew letter, an Arabic joined form or lam-alef ligature): not a reordering.
    const rightToLeft = glyph.rtl && previous.rtl;
    if (!sameLine(previous) || glyph.x >= previous.x - 0.25 || rightToLeft) continue;
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

/**
 * A glyph of no width (a vowel sign, nasal or subscript consonant drawn over or under the glyph
 * before it) gives its text to the glyph before it that has text: MuPDF's extraction otherwise
 * starts a new word at the mark (measured: Hindi "हैं" came back as "ह ैं"), and Poppler takes a
 * character starting where the one before it starts for a duplicate and breaks the word there
 * (measured: Telugu "ఒత్తులు" came back as "ఒత్త ులు").
 */
function mergeMarks(glyphs: readonly DrawnGlyph[]) {
  let holder: DrawnGlyph | undefined;
  for (const glyph of glyphs) {
    const mark = glyph.advance <= 0.01;
    // A mark may sit above or below its letter (Arabic harakat); another line is a line height off.
    const reach = mark && holder !== undefined ? 0.6 * holder.size : 0.5;
    if (holder !== undefined && Math.abs(glyph.y - holder.y) >= reach) holder = undefined;
    if (holder !== undefined && mark && glyph.text !== "") {
      holder.text += glyph.text;
      glyph.text = "";
      holder.exact = false;
      glyph.exact = false;
    }
    if (glyph.text !== "") holder = glyph;
  }
}

/**
 * A right-to-left cluster's text goes to its widest glyph. Arabic letters are drawn as a mark
 * glyph first (the dots, of no width, which MuPDF gives the cluster's character) and then the
 * letter's body (given none): left as drawn, the mark would hand the letter to the glyph before it
 * (`mergeMarks`) and the body would copy as nothing.
 */
function giveToWidest(cluster: readonly DrawnGlyph[]) {
  if (cluster.length < 2) return;
  const text = cluster.map((member) => member.text).join("");
  const widest = cluster.reduce((best, member) => (member.advance > best.advance ? member : best));
  for (const member of cluster) {
    member.text = member === widest ? text : "";
    member.exact = false;
  }
}

/** A device that records the glyphs of the text run through it, in drawing order. */
export function recordGlyphs(glyphs: DrawnGlyph[]): mupdf.Device {
  return new mupdf.Device({
    fillText(text) {
      // One text object holds many spans (words, lines): clusters never cross a span.
      const spans: DrawnGlyph[][] = [];
      let cluster: DrawnGlyph[] = [];
      text.walk({
        beginSpan() {
          spans.push([]);
          cluster = [];
        },
        showGlyph(font, trm, gid, unicode, _wmode, bidi) {
          const drawn = spans.at(-1);
          if (drawn === undefined) return;
          const char = unicode >= 0 ? String.fromCodePoint(unicode) : "";
          const last = drawn.at(-1);
          // A glyph id of -1 carries another character of the previous glyph's cluster.
          if (gid < 0) {
            if (last !== undefined) last.text += char;
            if (last?.rtl) giveToWidest(cluster);
            return;
          }
          const size = Math.hypot(trm[0], trm[1]);
          const blank = char === ZERO_WIDTH_SPACE;
          const exact = !blank && char !== "" && ownGlyph(font, char, gid);
          const glyph: DrawnGlyph = {
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
          };
          drawn.push(glyph);
          // A glyph with no character of its own is another glyph of the cluster before it.
          if (unicode < 0 && last !== undefined) cluster.push(glyph);
          else cluster = [glyph];
          if (glyph.rtl) giveToWidest(cluster);
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
 * text's. Right-to-left glyphs keep their drawing order, which is their reading order: MuPDF and
 * Poppler read a run stepping leftwards as right-to-left text.
 */
function leftToRight(glyphs: readonly DrawnGlyph[]): DrawnGlyph[] {
  const sorted: DrawnGlyph[] = [];
  for (const glyph of glyphs) {
    let at = sorted.length;
    while (at > 0 && !glyph.rtl && (sorted[at - 1]?.x ?? 0) > glyph.x + 0.25) at -= 1;
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
  return [...text].length === 1 && ownGlyph(glyph.font, text, glyph.gid);
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
