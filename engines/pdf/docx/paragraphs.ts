/**
 * Paragraphs from the visual lines of one text column, top to bottom. A line continues the
 * paragraph above when it has the same size, follows at the paragraph's line spacing, keeps its
 * left edge (or steps in under the text after a form entry's label, "24 Certain expenses"), and
 * the line above did not stop early (its next word would have fitted: the author broke the line;
 * a form entry's lines are measured against the entries around it, not the whole region). A word hyphenated at a line end is joined again (a hyphen before a capital or
 * a digit is kept, as in "Franco-German", with no space). Lines starting with a bullet
 * or a number are list items.
 */
import { type TextSpan, unionBox } from "../structured-text.ts";
import type { Line, ListKind, Paragraph, Run } from "./model.ts";
import { runOf } from "./model.ts";

export interface Column {
  readonly left: number;
  readonly right: number;
}

const BULLET = /^([•◦▪▫‣⁃●○■□►▶➢➤✓✔·*\-–—])\s+/u;
const NUMBERED = /^\(?(\d{1,3}|[a-z]|[A-Z]|[ivxlc]{2,6}|[IVXLC]{2,6})([.)])\s+/u;

/** Dot leaders or an arrow, then a short label (a page number, a form's line number). */
const ENTRY_END = /((\.\s?){4,}|(\s\.){2,}|[▶►→])\s*\S{1,8}$/u;

interface Draft {
  lines: Line[];
  runs: Run[];
  list: { kind: ListKind; number: number; marker: string } | null;
  /** x where the text (after a list marker) starts. */
  textLeft: number;
  steps: number[];
  /** The right edge of a form entry's text block (see `entryRight`), when the entry runs on. */
  right: number | null;
}

export function buildParagraphs(lines: readonly Line[], column: Column): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let draft: Draft | null = null;
  for (const [index, line] of lines.entries()) {
    const mark = listMark(line);
    const entry = draft === null ? null : entryRight(draft, line, lines, index);
    if (draft !== null && mark === null && continues(draft, line, column, entry)) {
      append(draft, line);
      draft.right ??= entry;
      continue;
    }
    if (draft !== null) paragraphs.push(finish(draft, column));
    draft = start(line, mark);
  }
  if (draft !== null) paragraphs.push(finish(draft, column));
  return paragraphs;
}

function listMark(line: Line): { kind: ListKind; number: number; length: number } | null {
  const bullet = BULLET.exec(line.text);
  if (bullet !== null && line.text.length > bullet[0].length) {
    return { kind: "bullet", number: 1, length: bullet[0].length };
  }
  const numbered = NUMBERED.exec(line.text);
  if (numbered === null || line.text.length <= numbered[0].length) return null;
  const label = numbered[1] ?? "";
  if (/^\d+$/.test(label)) return { kind: "decimal", number: Number(label), length: numbered[0].length };
  // A single letter is a letter ("C)" follows "B)"), longer runs of i v x l c are roman numerals.
  if (/^[ivxlc]{2,}$/.test(label))
    return { kind: "lower-roman", number: roman(label), length: numbered[0].length };
  if (/^[IVXLC]{2,}$/.test(label))
    return { kind: "upper-roman", number: roman(label), length: numbered[0].length };
  // A single letter with a full stop is often an initial ("J. Smith"): only "a)" style counts.
  if (numbered[2] !== ")") return null;
  const lower = label.toLowerCase();
  return {
    kind: label === lower ? "lower-letter" : "upper-letter",
    number: lower.charCodeAt(0) - 96,
    length: numbered[0].length,
  };
}

function roman(label: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  let total = 0;
  const lower = label.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const value = values[lower[i] ?? ""] ?? 0;
    const next = values[lower[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

function start(line: Line, mark: ReturnType<typeof listMark>): Draft {
  if (mark === null)
    return {
      lines: [line],
      runs: runsOf(line.spans),
      list: null,
      textLeft: line.box[0],
      steps: [],
      right: null,
    };
  const spans = dropPrefix(line.spans, mark.length);
  const textLeft = spans[0]?.chars.find((char) => char.c.trim() !== "")?.box[0] ?? line.box[0];
  return {
    lines: [line],
    runs: runsOf(spans),
    list: { kind: mark.kind, number: mark.number, marker: line.text.slice(0, mark.length).trim() },
    textLeft,
    steps: [],
    right: null,
  };
}

/** A form's entry label: a line number with at most a letter ("24", "6a"), or a letter ("b"). */
const ENTRY_LABEL = /^(\d{1,3}[a-z]?|[a-z])\s+(?=\S)/u;

/**
 * The right edge of a form entry's text block, when the line continues the entry: the entry's
 * first line starts with a label ("24 Certain business expenses of") and the line steps in under
 * the text after the label (a hanging indent). A form's entries end well before the region's
 * right edge (its amount boxes are there), so the edge is the furthest right of the first line
 * and the entries just above and below it (the nearest lines starting where it does). Otherwise
 * null.
 */
function entryRight(draft: Draft, line: Line, lines: readonly Line[], index: number): number | null {
  const first = draft.lines[0];
  if (first === undefined || draft.lines.length !== 1 || draft.list !== null) return null;
  const label = ENTRY_LABEL.exec(first.text);
  if (label === null) return null;
  const text = dropPrefix(first.spans, label[0].length)[0]?.chars.find((char) => char.c.trim() !== "");
  if (text === undefined || Math.abs(line.box[0] - text.box[0]) > line.size * 0.5) return null;
  const entry = (other: Line) => other !== first && Math.abs(other.box[0] - first.box[0]) <= first.size;
  const at = lines.lastIndexOf(first, index);
  const above = lines.slice(0, at).findLast(entry);
  const below = lines.slice(index + 1).find(entry);
  return Math.max(first.box[2], above?.box[2] ?? 0, below?.box[2] ?? 0);
}

function continues(draft: Draft, line: Line, column: Column, entry: number | null): boolean {
  const previous = draft.lines.at(-1);
  if (previous === undefined) return false;
  const size = Math.max(previous.size, line.size);
  if (Math.abs(previous.size - line.size) > 0.75) return false;
  const step = line.baseline - previous.baseline;
  const gap = line.box[1] - previous.box[3];
  if (step <= previous.size * 0.5 || step > size * 1.9 || gap > size * 0.9) return false;
  const usual = draft.steps.length > 0 ? Math.min(...draft.steps) : null;
  if (usual !== null && step > usual * 1.25 + 0.5) return false;
  if (boldShare(previous.spans) >= 0.9 !== boldShare(line.spans) >= 0.9 && draft.lines.length === 1)
    return false;
  // Left edge: list items continue under their text; other text may not step in.
  const left = draft.list !== null ? draft.textLeft : Math.min(...draft.lines.slice(-1).map((l) => l.box[0]));
  // An indented line starts a new paragraph (first-line indent), except under a first line that
  // ran to the column's edge: that is a hanging indent (footnotes, references).
  const right = draft.right ?? entry ?? column.right;
  const hanging =
    draft.list === null &&
    draft.lines.length === 1 &&
    (previous.box[2] >= column.right - size || entry !== null);
  // Centred text (a title page, a dedication) has a left edge of its own on every line: a centred
  // line continues a paragraph of centred lines, where a line may fill the column.
  const full = (l: Line) => l.box[0] <= column.left + size * 0.5 && l.box[2] >= column.right - size * 0.5;
  const centredText =
    draft.list === null &&
    [...draft.lines, line].every((l) => centredIn(l, column, size) || full(l)) &&
    [...draft.lines, line].some((l) => centredIn(l, column, size)) &&
    (draft.lines.length === 1 || draft.lines.some((l) => centredIn(l, column, size)));
  if (line.box[0] > left + size * 0.8 && !hanging && !centredText) return false;
  if (draft.list !== null && line.box[0] < left - size * 0.8) return false;
  // The line above stopped although the next word would have fitted: the author broke it.
  // A line of a table of contents ("Title . . . . 12"), or of a form whose leaders or arrow run to
  // the number of its box ("Alimony . . . 11", "total income ▶ 22"), is an entry of its own.
  if (ENTRY_END.test(previous.text)) return false;
  const word = firstWordWidth(line);
  const display = boldShare(previous.spans) >= 0.9 && boldShare(line.spans) >= 0.9;
  const centred = centredText || [previous, line].every((l) => centredIn(l, column, size));
  if (!centred && !display && previous.box[2] + size * 0.3 + word < right - size * 0.5) return false;
  return true;
}

/** The line is centred in the column, clear of its left edge. */
function centredIn(line: Line, column: Column, size: number): boolean {
  return (
    Math.abs((line.box[0] + line.box[2]) / 2 - (column.left + column.right) / 2) < size &&
    line.box[0] > column.left + size * 2
  );
}

function append(draft: Draft, line: Line): void {
  const previous = draft.lines.at(-1);
  if (previous !== undefined) draft.steps.push(line.baseline - previous.baseline);
  draft.lines.push(line);
  joinLine(draft.runs, runsOf(line.spans));
}

/**
 * Characters of scripts written without spaces between words (Chinese, Japanese kana, their
 * punctuation and full-width forms): a line break beside one stands for no space at all.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\uFF00-\uFFEF]/u;

/**
 * Appends the runs of the next line of a paragraph to its runs: a word hyphenated at the line end
 * is joined again, a line ending or starting in Chinese or Japanese runs straight on, other lines
 * are joined with a space.
 */
export function joinLine(runs: Run[], next: readonly Run[]): void {
  const last = runs.at(-1);
  const text = next.map((run) => run.text).join("");
  if (last !== undefined) {
    const hyphenated = /\p{L}[-\u2010\u00AD]$/u.test(last.text) && /^\p{Ll}/u.test(text);
    // A hyphen before a capital or a digit is the word's own ("Franco-German", "IEEE-754"): kept,
    // with no space.
    const compound = /\p{L}[-\u2010]$/u.test(last.text) && /^[\p{Lu}\p{N}]/u.test(text);
    if (hyphenated) {
      runs[runs.length - 1] = { ...last, text: last.text.slice(0, -1) };
    } else if (last.text.endsWith("\u00AD")) {
      runs[runs.length - 1] = { ...last, text: last.text.slice(0, -1) };
    } else if (!compound && !/\s$/.test(last.text) && !unspaced(last.text.at(-1), text[0])) {
      runs[runs.length - 1] = { ...last, text: `${last.text} ` };
    }
  }
  for (const run of next) pushRun(runs, run);
}

function unspaced(before: string | undefined, after: string | undefined): boolean {
  return UNSPACED.test(before ?? "") || UNSPACED.test(after ?? "");
}

function finish(draft: Draft, column: Column): Paragraph {
  const box = unionBox(draft.lines.map((line) => line.box));
  const size = draft.lines[0]?.size ?? 11;
  return {
    type: "paragraph",
    box,
    runs: draft.runs,
    lines: draft.lines.length,
    heading: 0,
    list: draft.list === null ? null : { ...draft.list, level: 0 },
    indent: Math.max(
      0,
      (draft.list !== null ? draft.textLeft : ((draft.lines[1] ?? draft.lines[0])?.box[0] ?? 0)) -
        column.left,
    ),
    alignment: alignmentOf(draft.lines, column, size),
  };
}

function alignmentOf(lines: readonly Line[], column: Column, size: number): Paragraph["alignment"] {
  const width = column.right - column.left;
  const first = lines[0];
  if (first === undefined || width <= 0) return "left";
  if (lines.every((line) => centredIn(line, column, size))) return "center";
  if (
    lines.every(
      (line) => Math.abs(line.box[2] - column.right) < size * 0.5 && line.box[0] > column.left + width * 0.3,
    )
  ) {
    return "right";
  }
  const inner = lines.slice(0, -1);
  if (inner.length >= 2 && inner.every((line) => Math.abs(line.box[2] - column.right) < size * 0.3))
    return "justified";
  return "left";
}

function firstWordWidth(line: Line): number {
  const chars = line.spans.flatMap((span) => span.chars);
  let end = chars.findIndex((char, i) => i > 0 && char.c.trim() === "");
  if (end < 0) end = chars.length;
  const word = chars.slice(0, end);
  if (word.length === 0) return 0;
  return (word.at(-1)?.box[2] ?? 0) - (word[0]?.box[0] ?? 0);
}

function boldShare(spans: readonly TextSpan[]): number {
  let bold = 0;
  let all = 0;
  for (const span of spans) {
    const count = span.text.replace(/\s/g, "").length;
    all += count;
    if (span.bold) bold += count;
  }
  return all === 0 ? 0 : bold / all;
}

/** The spans without the first `length` characters of their joined text. */
function dropPrefix(spans: readonly TextSpan[], length: number): TextSpan[] {
  const result: TextSpan[] = [];
  let left = length;
  for (const span of spans) {
    if (left >= span.text.length) {
      left -= span.text.length;
      continue;
    }
    const chars = span.chars.slice(Math.min(left, span.chars.length));
    result.push({ ...span, text: span.text.slice(left), chars });
    left = 0;
  }
  return result;
}

export function runsOf(spans: readonly TextSpan[]): Run[] {
  const runs: Run[] = [];
  const body = bodyOf(spans);
  for (const span of spans) {
    const script = body === null ? undefined : scriptOf(span, body);
    // Word draws a raised or lowered run smaller by itself: the run gets its line's size.
    pushRun(
      runs,
      body === null || script === undefined ? runOf(span) : { ...runOf(span), size: body.size, script },
    );
  }
  return runs;
}

/** A superscript is at most this share of its line's size, and raised at least this many sizes. */
const SCRIPT_SIZE = 0.8;
const SUPER_RAISE = 0.2;
const SUB_DROP = 0.1;

/** The size and baseline of the line's own text: the size most of its characters have. */
function bodyOf(spans: readonly TextSpan[]): { size: number; baseline: number } | null {
  const counts = new Map<number, number>();
  for (const span of spans) counts.set(span.size, (counts.get(span.size) ?? 0) + span.text.trim().length);
  let size = 0;
  let most = 0;
  for (const [candidate, count] of counts) {
    if (count > most || (count === most && candidate > size)) {
      size = candidate;
      most = count;
    }
  }
  const baseline = spans.find((span) => span.size === size)?.chars[0]?.y;
  return baseline === undefined || size <= 0 ? null : { size, baseline };
}

function scriptOf(span: TextSpan, body: { size: number; baseline: number }): Run["script"] {
  const y = span.chars[0]?.y;
  if (y === undefined || span.text.trim() === "" || span.size > body.size * SCRIPT_SIZE) return undefined;
  if (body.baseline - y >= body.size * SUPER_RAISE) return "super";
  if (y - body.baseline >= body.size * SUB_DROP) return "sub";
  return undefined;
}

/** Appends a run, joined to the last one when their style is the same (page numbers stay apart). */
function pushRun(runs: Run[], run: Run): void {
  if (run.text === "") return;
  const last = runs.at(-1);
  if (
    last !== undefined &&
    last.pageNumber !== true &&
    run.pageNumber !== true &&
    last.font === run.font &&
    last.size === run.size &&
    last.bold === run.bold &&
    last.italic === run.italic &&
    last.underline === run.underline &&
    last.color === run.color &&
    last.script === run.script
  ) {
    runs[runs.length - 1] = { ...last, text: last.text + run.text };
    return;
  }
  runs.push(run);
}
