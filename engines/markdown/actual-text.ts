/**
 * Text that copies and searches right in every script. MuPDF's PDF writer maps each glyph back to
 * a character through the font's own character map, which cannot describe shaped text: an Indic
 * conjunct is one glyph for several characters, a vowel sign can be two glyphs, and a glyph reached
 * only by substitution maps to nothing (measured: Hindi came back as "ह��दी"). PDF's answer is
 * /ActualText, a marked-content span giving the real text of the glyphs it wraps; MuPDF, pdf.js,
 * Poppler and Acrobat read it. Wrapping single glyphs (not whole words) is what MuPDF's own text
 * extraction reads back in order (measured: word-level spans came back with doubled letters).
 *
 * While a page is drawn, `recordGlyphs` keeps every glyph id with the characters its cluster stands
 * for (MuPDF's layout knows them). `addActualText` then finds the same glyphs in the written
 * content stream (`[…]TJ` operations in drawing order, glyph ids as 4 hex digits) and wraps each
 * glyph whose font character map would not give its text back.
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
}

/**
 * Shaping draws some glyphs left of glyphs that come before them (a pre-base vowel sign such as
 * Hindi ि or Tamil ை is moved back over its consonant). Text extractors read glyphs in drawing
 * order and break the word at such a jump back, or at the gap left for the moved glyph. So each
 * such cluster is given to its leftmost glyph as one text, the others keep none, and the content
 * stream later draws the cluster left to right (`visualOrder`).
 */
function mergeReordered(glyphs: DrawnGlyph[]) {
  for (let i = 1; i < glyphs.length; i++) {
    const glyph = glyphs[i];
    const previous = glyphs[i - 1];
    if (glyph === undefined || previous === undefined) continue;
    // A span can wrap onto the next line: only a step back on the same baseline counts.
    const sameLine = (other: DrawnGlyph | undefined) =>
      other !== undefined && Math.abs(other.y - glyph.y) < 0.5;
    if (!sameLine(previous) || glyph.x >= previous.x - 0.25) continue;
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
 * A glyph of no width that stands only for combining marks (a vowel sign or nasal drawn over its
 * consonant)
 * joins the glyph before it: MuPDF's extraction otherwise starts a new word at the mark
 * (measured: Hindi "हैं" came back as "ह ैं").
 */
function mergeMarks(glyphs: readonly DrawnGlyph[]) {
  for (let i = 1; i < glyphs.length; i++) {
    const glyph = glyphs[i];
    const previous = glyphs[i - 1];
    if (glyph === undefined || previous === undefined || previous.text === "") continue;
    if (glyph.advance > 0.01 || !/^\p{M}+$/u.test(glyph.text) || Math.abs(glyph.y - previous.y) >= 0.5)
      continue;
    previous.text += glyph.text;
    glyph.text = "";
    previous.exact = false;
    glyph.exact = false;
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
        showGlyph(font, trm, gid, unicode) {
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
          const exact = char !== "" && font.encodeCharacter(char) === gid;
          drawn.push({
            gid,
            text: char,
            exact,
            x: trm[4],
            y: trm[5],
            size,
            advance: font.advanceGlyph(gid) * size,
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

function utf16Hex(text: string): string {
  let hex = "FEFF";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return hex.toUpperCase();
}

const SHOW_TEXT = /\[((?:\s*(?:<[0-9A-Fa-f\s]*>|[-+]?[\d.]+))*)\s*\]\s*TJ/g;
const ELEMENT = /<([0-9A-Fa-f\s]*)>|([-+]?[\d.]+)/g;

type Element = { readonly gid: number } | { readonly shift: string };

function elementsOf(array: string): Element[] {
  const elements: Element[] = [];
  for (const match of array.matchAll(ELEMENT)) {
    if (match[2] !== undefined) {
      elements.push({ shift: match[2] });
      continue;
    }
    const hex = (match[1] ?? "").replaceAll(/\s/g, "");
    for (let i = 0; i + 4 <= hex.length; i += 4)
      elements.push({ gid: Number.parseInt(hex.slice(i, i + 4), 16) });
  }
  return elements;
}

const hex4 = (gid: number) => gid.toString(16).padStart(4, "0");

/**
 * Glyphs (left to right) grouped for ActualText: a glyph with text and the glyphs without text
 * after it, but never more glyphs than characters. MuPDF gives each glyph in a span one character
 * and breaks the line after a glyph left without one (measured on Tamil ௌ, drawn as three glyphs
 * for two characters), so surplus glyphs move on to the next group; the last group keeps any left.
 */
function clustersOf(visual: readonly DrawnGlyph[]): DrawnGlyph[][] {
  const natural: DrawnGlyph[][] = [];
  for (const glyph of visual) {
    const current = natural.at(-1);
    if (current === undefined || glyph.text !== "") natural.push([glyph]);
    else current.push(glyph);
  }
  const clusters: DrawnGlyph[][] = [];
  let carry: DrawnGlyph[] = [];
  for (const group of natural) {
    const glyphs = [...carry, ...group];
    const chars = Math.max(1, [...group.map((glyph) => glyph.text).join("")].length);
    clusters.push(glyphs.slice(0, chars));
    carry = glyphs.slice(chars);
  }
  if (carry.length > 0) clusters.at(-1)?.push(...carry);
  return clusters;
}

/** Shifts (TJ numbers, thousandths of the font size) that move the pen from `from` to `to`. */
function shift(from: number, to: number, size: number): string {
  const amount = ((from - to) * 1000) / size;
  return Math.abs(amount) < 0.01 ? "" : `${amount.toFixed(2)} `;
}

/**
 * The glyphs of one show-text operation drawn left to right, each inexact glyph in its own
 * ActualText span; the pen ends where the original operation left it.
 */
function rewrite(elements: readonly Element[], glyphs: readonly DrawnGlyph[]): string {
  const first = glyphs[0];
  const last = glyphs.at(-1);
  if (first === undefined || last === undefined) return "";
  const size = first.size;
  // Where the operation starts: the first glyph, less the shifts in front of it.
  let lead = 0;
  for (const element of elements) {
    if ("gid" in element) break;
    lead += Number(element.shift);
  }
  let pen = first.x + (lead * size) / 1000;
  const start = pen;
  const visual = [...glyphs].sort((a, b) => a.x - b.x);
  const clusters = clustersOf(visual);
  const parts: string[] = [];
  let plain = shift(start, pen, size);
  for (const cluster of clusters) {
    let shown = "";
    for (const glyph of cluster) {
      shown += `${shift(pen, glyph.x, size)}<${hex4(glyph.gid)}>`;
      pen = glyph.x + glyph.advance;
    }
    const text = cluster.map((glyph) => glyph.text).join("");
    if (cluster.length === 1 && cluster[0]?.exact === true && cluster[0].text !== "") {
      plain += shown;
      continue;
    }
    // One span for the whole cluster: MuPDF drops text given to a glyph of its own inside one.
    if (plain !== "") parts.push(`[${plain}]TJ`);
    parts.push(`/Span<</ActualText<${utf16Hex(text)}>>>BDC [${shown}]TJ EMC`);
    plain = "";
  }
  // Back to where the original left the pen (its trailing shifts included).
  let trail = 0;
  for (let i = elements.length - 1; i >= 0; i--) {
    const element = elements[i];
    if (element === undefined || "gid" in element) break;
    trail += Number(element.shift);
  }
  plain += shift(pen, last.x + last.advance - (trail * size) / 1000, size);
  if (plain.trim() !== "") parts.push(`[${plain}]TJ`);
  return parts.join("\n");
}

/**
 * The content stream with ActualText on the glyphs that need it, and the count of show-text
 * operations whose glyphs matched nothing recorded (0 when all went well).
 */
export function addActualText(
  content: string,
  glyphs: readonly DrawnGlyph[],
): { content: string; unmatched: number } {
  let cursor = 0;
  let unmatched = 0;
  const matchesAt = (gids: readonly number[], at: number) =>
    at + gids.length <= glyphs.length && gids.every((gid, i) => glyphs[at + i]?.gid === gid);
  const rewritten = content.replace(SHOW_TEXT, (operation, array: string) => {
    const elements = elementsOf(array);
    const gids = elements.flatMap((element) => ("gid" in element ? [element.gid] : []));
    if (gids.length === 0) return operation;
    let at = cursor;
    if (!matchesAt(gids, at)) {
      // Resynchronise a little further on (text MuPDF drew without recording, e.g. none so far).
      at = -1;
      for (let probe = cursor + 1; probe < Math.min(glyphs.length, cursor + 512); probe++) {
        if (matchesAt(gids, probe)) {
          at = probe;
          break;
        }
      }
      if (at < 0) {
        unmatched += 1;
        return operation;
      }
    }
    cursor = at + gids.length;
    const own = glyphs.slice(at, cursor);
    return own.every((glyph) => glyph.exact) ? operation : rewrite(elements, own);
  });
  return { content: rewritten, unmatched };
}
