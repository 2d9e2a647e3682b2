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
  text: string;
  /** The font's character map gives `text` back for this glyph (one character, its own glyph). */
  exact: boolean;
}

/**
 * A glyph drawn left of the one before it on the same line (a pre-base vowel sign such as Hindi ि
 * or Tamil ெ) makes text extractors start a new line; its characters move to the glyph before it,
 * which is where a reader's eye starts the cluster, and it keeps an empty text.
 */
function mergeReordered(glyphs: readonly (DrawnGlyph & { x: number; y: number })[]) {
  for (let i = 1; i < glyphs.length; i++) {
    const glyph = glyphs[i];
    const previous = glyphs[i - 1];
    if (glyph === undefined || previous === undefined) continue;
    if (Math.abs(glyph.y - previous.y) < 1 && glyph.x < previous.x - 0.25) {
      previous.text += glyph.text;
      glyph.text = "";
    }
  }
}

/** A device that records the glyphs of the text run through it, in drawing order. */
export function recordGlyphs(glyphs: DrawnGlyph[]): mupdf.Device {
  return new mupdf.Device({
    fillText(text) {
      const drawn: (DrawnGlyph & { x: number; y: number; font: mupdf.Font })[] = [];
      text.walk({
        showGlyph(font, trm, gid, unicode) {
          const char = unicode >= 0 ? String.fromCodePoint(unicode) : "";
          const last = drawn.at(-1);
          // A glyph id of -1 carries another character of the previous glyph's cluster.
          if (gid < 0) {
            if (last !== undefined) last.text += char;
            return;
          }
          drawn.push({ gid, text: char, exact: false, x: trm[4], y: trm[5], font });
        },
      });
      mergeReordered(drawn);
      for (const glyph of drawn) {
        const chars = [...glyph.text];
        const exact = chars.length === 1 && glyph.font.encodeCharacter(chars[0] ?? "") === glyph.gid;
        glyphs.push({ gid: glyph.gid, text: glyph.text, exact });
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

/** One show-text operation split so that each inexact glyph sits in its own ActualText span. */
function rewrite(elements: readonly Element[], glyphs: readonly DrawnGlyph[]): string {
  const parts: string[] = [];
  let plain = "";
  let index = 0;
  for (const element of elements) {
    if ("shift" in element) {
      plain += `${element.shift} `;
      continue;
    }
    const glyph = glyphs[index++];
    if (glyph === undefined || glyph.exact) {
      plain += `<${hex4(element.gid)}>`;
      continue;
    }
    // Pending shifts stay in front of the glyph they move; earlier glyphs are shown first.
    const shifts = /(?:[-+]?[\d.]+ )+$/.exec(plain)?.[0] ?? "";
    const before = plain.slice(0, plain.length - shifts.length);
    if (before !== "") parts.push(`[${before}]TJ`);
    parts.push(`/Span<</ActualText<${utf16Hex(glyph.text)}>>>BDC [${shifts}<${hex4(element.gid)}>]TJ EMC`);
    plain = "";
  }
  if (plain !== "") parts.push(`[${plain}]TJ`);
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
