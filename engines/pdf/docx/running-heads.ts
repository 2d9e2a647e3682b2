/**
 * Running headers and footers: lines near the top or bottom edge whose text (numbers aside)
 * comes back at about the same place on most pages. They are taken out of the body and kept once
 * as the Word header or footer, the page number becoming a PAGE field.
 */
import { gutterWidth } from "./layout.ts";
import type { Line, NumberStyle, Paragraph, Run } from "./model.ts";
import { buildParagraphs, joinLine, runsOf } from "./paragraphs.ts";
import { readingOrder } from "./reading-order.ts";

/** Share of the page height, from the top or the bottom, where running heads are looked for. */
const EDGE = 0.12;
/** Share of the pages a line must come back on. */
const MIN_SHARE = 0.5;

export interface PageLines {
  readonly height: number;
  readonly width: number;
  readonly lines: readonly Line[];
}

export interface RunningHeads {
  /** Per page, the lines that are running heads. */
  readonly removed: readonly Set<Line>[];
  readonly header: Paragraph[];
  readonly footer: Paragraph[];
  /**
   * Per page, the page number its running head prints (value and style), where one does: Word's
   * numbering starts a new section where the printed numbers start again or change style
   * (roman front matter, then arabic).
   */
  readonly printed: readonly (PrintedNumber | undefined)[];
}

export interface PrintedNumber {
  readonly value: number;
  readonly style: NumberStyle;
}

/** The text with page numbers (digits, or a lone roman numeral) as "#". */
function pageless(text: string): string {
  const key = text.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().toLowerCase();
  return /^[ivxlc]+$/.test(key) ? "#" : key;
}

function keyOf(line: Line, page: PageLines, top: boolean): string {
  const text = pageless(line.text);
  const y = top ? line.box[1] : page.height - line.box[3];
  return `${top ? "t" : "b"}|${Math.round(y / 6)}|${text}`;
}

interface Seen {
  line: Line;
  page: number;
  numbers: readonly number[];
}

/** The numbers of a line's text (digits, or a lone roman numeral as its value), in order. */
function numbersOf(text: string): number[] {
  const roman = /^\s*([ivxlc]+)\s*$/i.exec(text);
  if (roman) return [romanValue(roman[1] ?? "")];
  return [...text.matchAll(/\d+/g)].map((match) => Number(match[0]));
}

function romanValue(label: string): number {
  const values: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
  const lower = label.toLowerCase();
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    const value = values[lower[i] ?? ""] ?? 0;
    const next = values[lower[i + 1] ?? ""] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

/**
 * Which number of a repeated line is the page number: the one that goes up with the page (its
 * value minus the page index is the same on every page), all others being the same on every page.
 * Returns the slot and the printed number of the first page (index 0), or null when the numbers
 * change in any other way (a table of figures near the page edge is not a running head), and
 * `{ slot: -1 }` when no number changes.
 */
function pageSlot(entries: readonly Seen[]): { slot: number; offset: number } | null {
  const first = entries[0];
  if (first === undefined) return null;
  // A bare number at the page edge is a page number, even where the numbering starts again
  // (roman front matter, then arabic): Word numbers from the most usual start.
  if (pageless(first.line.text) === "#") {
    const shifts = new Map<number, number>();
    for (const entry of entries) {
      const shift = (entry.numbers[0] ?? 0) - entry.page;
      shifts.set(shift, (shifts.get(shift) ?? 0) + 1);
    }
    const offset = [...shifts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    return { slot: 0, offset };
  }
  const count = first.numbers.length;
  if (entries.some((entry) => entry.numbers.length !== count)) return null;
  let slot = -1;
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const values = entries.map((entry) => entry.numbers[i] ?? 0);
    if (values.every((value) => value === values[0])) continue;
    const shift = (values[0] ?? 0) - first.page;
    if (slot >= 0 || !entries.every((entry, k) => values[k] === entry.page + shift)) return null;
    slot = i;
    offset = shift;
  }
  return { slot, offset };
}

export function findRunningHeads(pages: readonly PageLines[]): RunningHeads {
  const removed = pages.map(() => new Set<Line>());
  if (pages.length < 2) return { removed, header: [], footer: [], printed: [] };
  const seen = new Map<string, Seen[]>();
  pages.forEach((page, index) => {
    for (const line of page.lines) {
      const top = line.box[3] <= page.height * EDGE;
      const bottom = line.box[1] >= page.height * (1 - EDGE);
      if (!top && !bottom) continue;
      const key = keyOf(line, page, top);
      const entries = seen.get(key) ?? [];
      // One line per page and key: the first.
      if (entries.at(-1)?.page !== index) entries.push({ line, page: index, numbers: numbersOf(line.text) });
      seen.set(key, entries);
    }
  });
  const needed = Math.max(2, Math.ceil(pages.length * MIN_SHARE));
  const header: Head[] = [];
  const footer: Head[] = [];
  const printed: (PrintedNumber | undefined)[] = pages.map(() => undefined);
  for (const [key, entries] of seen) {
    if (entries.length < needed) continue;
    // Lines that differ in numbers other than the page number are content (e.g. the last row of
    // a table that fills every page), kept in the body; the same text on enough pages is a head.
    let kept = entries;
    let found = pageSlot(entries);
    if (found === null) {
      const byText = new Map<string, Seen[]>();
      for (const entry of entries)
        byText.set(entry.line.text, [...(byText.get(entry.line.text) ?? []), entry]);
      const same = [...byText.values()].find((group) => group.length >= needed);
      if (same === undefined) continue;
      kept = same;
      found = { slot: -1, offset: 0 };
    }
    const first = kept[0] as Seen;
    (key.startsWith("t") ? header : footer).push({ line: first.line, slot: found.slot });
    for (const entry of kept) {
      removed[entry.page]?.add(entry.line);
      const value = entry.numbers[found.slot];
      if (value !== undefined && printed[entry.page] === undefined) {
        const roman = /^\s*([ivxlc]+)\s*$/i.exec(entry.line.text)?.[1];
        const style =
          roman === undefined ? "decimal" : roman === roman.toLowerCase() ? "lower-roman" : "upper-roman";
        printed[entry.page] = { value, style };
      }
    }
  }
  return { removed, header: toParagraphs(header), footer: toParagraphs(footer), printed };
}

interface Head {
  line: Line;
  /** Index of the number that is the page number, or -1. */
  slot: number;
}

/**
 * The header's or footer's lines as paragraphs, laid out as the body is: in reading order, lines
 * that run on joined (a notice of several lines at the foot of every page is one paragraph).
 */
function toParagraphs(heads: Head[]): Paragraph[] {
  const lines = heads.map((head) => head.line);
  const ordered = readingOrder(
    heads.map((head) => ({ box: head.line.box, text: head.line.text, head })),
    gutterWidth(lines),
  ).flatMap((region) => region.map((piece) => piece.head));
  const column = {
    left: Math.min(...lines.map((line) => line.box[0])),
    right: Math.max(...lines.map((line) => line.box[2])),
  };
  const paragraphs: Paragraph[] = [];
  let next = 0;
  for (const built of buildParagraphs(
    ordered.map((head) => head.line),
    column,
  )) {
    const runs: Run[] = [];
    for (const head of ordered.slice(next, next + built.lines)) joinLine(runs, headRuns(head));
    next += built.lines;
    paragraphs.push({ ...built, runs, list: null, heading: 0 });
  }
  return paragraphs;
}

/** A head line's runs, its page number (the number that goes up with the page) a PAGE field. */
function headRuns({ line, slot }: Head): Run[] {
  let number = -1;
  const roman = /^\s*[ivxlc]+\s*$/i.test(line.text);
  return runsOf(line.spans).flatMap((run, i) => {
    if (slot < 0) return [run];
    // A bare roman page number is the PAGE field itself.
    if (roman) return i === 0 ? [{ ...run, text: "#", pageNumber: true }] : [];
    const parts: Run[] = [];
    let last = 0;
    for (const match of run.text.matchAll(/\d+/g)) {
      number++;
      if (number !== slot) continue;
      const at = match.index ?? 0;
      if (at > last) parts.push({ ...run, text: run.text.slice(last, at) });
      parts.push({ ...run, text: match[0], pageNumber: true });
      last = at + match[0].length;
    }
    if (last < run.text.length) parts.push({ ...run, text: run.text.slice(last) });
    return parts;
  });
}
