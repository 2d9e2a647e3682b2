/**
 * Visual lines from MuPDF's lines: pieces on one baseline that sit close together (a bullet and
 * its text, words MuPDF split at a style change or a wide space) are joined left to right; pieces
 * further apart stay separate (columns, table cells).
 */
import { type TextLine, type TextSpan, unionBox } from "../structured-text.ts";
import { combineAccents } from "./accents.ts";
import type { Line } from "./model.ts";

/** A list marker or a short label may sit this many font sizes before its text. */
const MARKER_GAP = 4;
/** Pieces of one line of text are at most this many font sizes apart. */
const WORD_GAP = 1;
const LEADER_GAP = 6;
/** Dot leaders (a table of contents line). */
export const LEADERS = /(\.\s?){4,}$|…$/;

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
    if (used[i]) continue;
    let current = pieces[i] as Line;
    used[i] = true;
    for (let j = i + 1; j < pieces.length; j++) {
      const next = pieces[j] as Line;
      if (next.baseline - current.baseline > current.size * 0.4) break;
      if (used[j] || !sameBaseline(current, next)) continue;
      const gap = next.box[0] - current.box[2];
      // A marker, or dot leaders running to a page number, may be far from what follows.
      const limit =
        current.text.trim().length <= 3 ? MARKER_GAP : LEADERS.test(current.text) ? LEADER_GAP : WORD_GAP;
      if (gap < -current.size * 0.5 || gap > limit * Math.max(current.size, next.size)) continue;
      current = joinLines(current, next);
      used[j] = true;
    }
    result.push(current);
  }
  return result.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
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
