/**
 * Text that copies and searches right in every script. MuPDF's PDF writer maps each glyph back to
 * a character through the font's own character map, which cannot describe shaped text: an Indic
 * conjunct is one glyph for several characters, a vowel sign can be two glyphs, and a glyph reached
 * only by substitution maps to nothing (measured: Hindi came back as "ह��दी"). PDF's answer is
 * /ActualText, a marked-content span giving the real text of the glyphs it wraps; MuPDF, Poppler,
 * PDFium (Chrome) and Acrobat read it (pdf.js reads only the character map).
 *
 * `addActualText` finds the glyphs recorded while drawing (glyph-text.ts) in the written content
 * stream (`[…]TJ` operations in drawing order, glyph ids as 4 hex digits) and redraws each
 * operation whose glyphs the character map does not describe left to right, part by part, each
 * part whose text the map would not give back in an ActualText span of its own.
 */
import { type DrawnGlyph, mapsTo, textParts } from "./glyph-text.ts";

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

/** Shifts (TJ numbers, thousandths of the font size) that move the pen from `from` to `to`. */
function shift(from: number, to: number, size: number): string {
  const amount = ((from - to) * 1000) / size;
  return Math.abs(amount) < 0.01 ? "" : `${amount.toFixed(2)} `;
}

/**
 * The glyphs of one show-text operation drawn left to right, each part whose text the character
 * map would not give back in an ActualText span of its own; the pen ends where the original
 * operation left it.
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
  const parts: string[] = [];
  let plain = shift(start, pen, size);
  for (const part of textParts(glyphs)) {
    let shown = "";
    for (const glyph of part.glyphs) {
      shown += `${shift(pen, glyph.x, size)}<${hex4(glyph.gid)}>`;
      pen = glyph.x + glyph.advance;
    }
    const only = part.glyphs.length === 1 ? part.glyphs[0] : undefined;
    if (only !== undefined && mapsTo(only, part.text)) {
      plain += shown;
      continue;
    }
    if (plain !== "") parts.push(`[${plain}]TJ`);
    parts.push(`/Span<</ActualText<${utf16Hex(part.text)}>>>BDC [${shown}]TJ EMC`);
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
