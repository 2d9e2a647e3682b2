/**
 * Visual lines from MuPDF's lines: pieces on one baseline that sit close together (a bullet and
 * its text, words MuPDF split at a style change or a wide space) are joined left to right; pieces
 * further apart stay separate (columns, table cells). A short piece set into a line off its
 * baseline (a raised mark) goes into that line.
 */
import { rightToLeft, type TextLine, type TextSpan, unionBox } from "../structured-text.ts";
import { combineAccents } from "./accents.ts";
import type { Line } from "./model.ts";

/** A list marker or a short label may sit this many font sizes before its text. */
const MARKER_GAP = 4;
/** Pieces of one line of text are at most this many font sizes apart. */
const WORD_GAP = 1;
const LEADER_GAP = 6;
/**
 * A piece that is only leader dots: forms draw their leaders as runs of a few dots set apart
 * (". . ." every half inch), each a piece of its own.
 */
const LEADER_PIECE = /^[.\s…·]*[.…·][.\s…·]*$/u;
/** A line ending in dot leaders, or in an arrow pointing at the box it fills. */
const LEADS = /(\.\s?){4,}$|(\s\.){2,}$|[…▶►→]$/u;
/** What dot leaders run to: a page or line number, a box label ("8a", "▶ 46"). */
const LEADER_TARGET_CHARS = 6;

export function toLine(spans: readonly TextSpan[]): Line {
  const text = spans.map((span) => span.text).join("");
  const sizes = new Map<number, number>();
  for (const span of spans) {
    const count = span.text.replace(/\s/g, "").length;
    sizes.set(span.size, (sizes.get(span.size) ?? 0) + count);
  }
  let size = spans[0]?.size ?? 0;
  let most = -1;
  for (const [candidate, count] of sizes) {
    if (count > most) {
      size = candidate;
      most = count;
    }
  }
  const baseline = spans[0]?.chars[0]?.y ?? 0;
  return { box: unionBox(spans.map((span) => span.box)), baseline, spans, text, size };
}

/** Visual lines of horizontal text, each with text, top to bottom then left to right. */
export function visualLines(lines: readonly TextLine[]): Line[] {
  const pieces = lines
    .filter((line) => line.text.trim() !== "")
    .map((line) => toLine(trimSpans(combineAccents(line.spans))))
    .filter((line) => line.spans.length > 0)
    .sort((a, b) => a.baseline - b.baseline || a.box[0] - b.box[0]);
  const result: Line[] = [];
  const used = new Array<boolean>(pieces.length).fill(false);
  for (let i = 0; i < pieces.length; i++) {
    const head = pieces[i] as Line;
    // The pieces on this baseline, left to right: one drawn a little lower may be further left.
    while (!used[i]) {
      const row: Line[] = [];
      const at: number[] = [];
      for (let j = i; j < pieces.length; j++) {
        const next = pieces[j] as Line;
        if (next.baseline - head.baseline > head.size * 0.4) break;
        if (!used[j] && sameBaseline(head, next)) {
          row.push(next);
          at.push(j);
        }
      }
      // A row of Arabic or Hebrew is read from the right: its pieces join right to left.
      const rtl = rightToLeft(row.map((line) => line.text).join(""));
      const order = row
        .map((_, k) => k)
        .sort((a, b) =>
          rtl
            ? (row[b] as Line).box[2] - (row[a] as Line).box[2]
            : (row[a] as Line).box[0] - (row[b] as Line).box[0],
        );
      const first = order[0] ?? 0;
      let current = row[first] as Line;
      used[at[first] ?? i] = true;
      for (const k of order.slice(1)) {
        const next = row[k] as Line;
        const gap = rtl ? current.box[0] - next.box[2] : next.box[0] - current.box[2];
        // A marker, or dot leaders running to a page number, may be far from what follows; the
        // dots of a leader may be far from the text they follow and from each other.
        const limit =
          current.text.trim().length <= 3 ? MARKER_GAP : leaderGap(current, next) ? LEADER_GAP : WORD_GAP;
        if (gap < -current.size * 0.5 || gap > limit * Math.max(current.size, next.size)) continue;
        current = joinLines(current, next);
        used[at[k] ?? i] = true;
      }
      result.push(current);
    }
  }
  return insertInsets(result).sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}

/** The gap between the two pieces may be a dot leader's: the right one is leader dots, or the left ends in leaders and the right is their target or more dots. */
function leaderGap(left: Line, right: Line): boolean {
  if (LEADER_PIECE.test(right.text)) return true;
  const leads = LEADS.test(left.text) || LEADER_PIECE.test(left.text);
  return leads && right.text.replace(/\s/g, "").length <= LEADER_TARGET_CHARS;
}

/** Visible characters in an inset piece at most (a raised "*", letters set apart). */
const INSET_CHARS = 3;

/**
 * Short pieces set into a longer line a little above or below its baseline (a raised asterisk or
 * footnote mark, letters the producer moved apart) go into that line at their place: on their
 * own they would cut the paragraph around them in two. A piece that fills a gap between two
 * words takes the gap's place; a narrower gap (a word space under a raised mark) stays after it.
 */
function insertInsets(lines: readonly Line[]): Line[] {
  const visible = (line: Line) => line.text.replace(/\s/g, "").length;
  const result = [...lines];
  for (const piece of lines) {
    if (visible(piece) > INSET_CHARS) continue;
    // The line whose baseline is nearest, a raised or lowered mark being at most half a size off.
    let index = -1;
    for (const [i, host] of result.entries()) {
      const off = Math.abs(host.baseline - piece.baseline);
      if (visible(host) <= INSET_CHARS || host.box[0] >= piece.box[0] || host.box[2] <= piece.box[2])
        continue;
      if (off > host.size * 0.5) continue;
      if (index < 0 || off < Math.abs((result[index] as Line).baseline - piece.baseline)) index = i;
    }
    const host = result[index];
    if (host === undefined) continue;
    const chars = host.spans.flatMap((span) => span.chars);
    const middleOf = (box: readonly number[]) => ((box[0] ?? 0) + (box[2] ?? 0)) / 2;
    const middle = middleOf(piece.box);
    // Glyph boxes are wider than their ink: the piece's middle half must be clear of letters.
    const quarter = (piece.box[2] - piece.box[0]) / 4;
    const inked = chars.flatMap((char, i) => (char.c.trim() === "" ? [] : [{ char, i }]));
    if (inked.some(({ char }) => Math.abs(middleOf(char.box) - middle) < quarter)) continue;
    const before = inked.filter(({ char }) => middleOf(char.box) < middle).at(-1);
    const after = inked.find(({ char }) => middleOf(char.box) >= middle);
    const gap = (after?.char.box[0] ?? piece.box[2]) - (before?.char.box[2] ?? piece.box[0]);
    const fills = gap >= (piece.box[2] - piece.box[0]) * 0.7;
    const end = (before?.i ?? -1) + 1;
    const start = fills ? (after?.i ?? chars.length) : end;
    const left = cutSpans(host.spans, 0, end);
    const right = cutSpans(host.spans, start, chars.length);
    const inset = [...piece.spans];
    // A word space where the white beside the piece is one.
    const space = (from: number, to: number) => fills && to - from > piece.size * 0.25;
    const last = left.at(-1);
    if (last !== undefined && space(last.box[2], piece.box[0]))
      left[left.length - 1] = { ...last, text: `${last.text} ` };
    const own = inset.at(-1);
    if (own !== undefined && right[0] !== undefined && space(piece.box[2], right[0].box[0]))
      inset[inset.length - 1] = { ...own, text: `${own.text} ` };
    result[index] = toLine([...left, ...inset, ...right]);
    result.splice(result.indexOf(piece), 1);
  }
  return result;
}

/** The spans' characters `from` to `to` (exclusive, counted over all the spans). */
function cutSpans(spans: readonly TextSpan[], from: number, to: number): TextSpan[] {
  const result: TextSpan[] = [];
  let offset = 0;
  for (const span of spans) {
    const start = Math.max(0, from - offset);
    const end = Math.min(span.chars.length, to - offset);
    offset += span.chars.length;
    if (end <= start) continue;
    const chars = span.chars.slice(start, end);
    if (chars.length === span.chars.length) {
      result.push(span);
      continue;
    }
    const text = chars.map((char) => char.c).join("");
    result.push({ ...span, chars, text, box: unionBox(chars.map((char) => char.box)) });
  }
  return result;
}

function sameBaseline(a: Line, b: Line): boolean {
  return Math.abs(a.baseline - b.baseline) <= Math.min(a.size, b.size) * 0.3;
}

function joinLines(left: Line, right: Line): Line {
  const spans = [...left.spans];
  const last = spans.at(-1);
  if (last !== undefined && !/\s$/.test(last.text) && !/^\s/.test(right.text)) {
    spans[spans.length - 1] = { ...last, text: `${last.text} ` };
  }
  return toLine([...spans, ...right.spans]);
}

/** Spans without leading and trailing white space (a line's own margins). */
function trimSpans(spans: readonly TextSpan[]): TextSpan[] {
  const kept = spans.filter((span) => span.text !== "");
  while (kept.length > 0 && kept[0]?.text.trim() === "") kept.shift();
  while (kept.length > 0 && kept.at(-1)?.text.trim() === "") kept.pop();
  const first = kept[0];
  if (first !== undefined) kept[0] = { ...first, text: first.text.trimStart() };
  const last = kept.at(-1);
  if (last !== undefined) kept[kept.length - 1] = { ...last, text: last.text.trimEnd() };
  return kept;
}

/**
 * The part of a line made of its characters `from` to `to` (exclusive, counted over all its
 * spans), with its own white space at either end trimmed, or null when that leaves nothing.
 */
export function linePiece(line: Line, from: number, to: number): Line | null {
  const spans: TextSpan[] = [];
  let offset = 0;
  for (const span of line.spans) {
    const start = Math.max(0, from - offset);
    const end = Math.min(span.chars.length, to - offset);
    offset += span.chars.length;
    if (end <= start) continue;
    const chars = span.chars.slice(start, end);
    const whole = chars.length === span.chars.length;
    spans.push({
      ...span,
      chars,
      text: whole ? span.text : chars.map((char) => char.c).join(""),
      box: whole ? span.box : unionBox(chars.map((char) => char.box)),
    });
  }
  const trimmed = trimSpans(spans);
  return trimmed.length === 0 ? null : toLine(trimmed);
}
