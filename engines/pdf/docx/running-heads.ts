/**
 * Running headers and footers: lines near the top or bottom edge whose text (numbers aside)
 * comes back at about the same place on most pages. They are taken out of the body and kept once
 * as the Word header or footer, the page number becoming a PAGE field.
 */
import type { Line, Paragraph } from "./model.ts";
import { runsOf } from "./paragraphs.ts";

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

export function findRunningHeads(pages: readonly PageLines[]): RunningHeads {
  const removed = pages.map(() => new Set<Line>());
  if (pages.length < 2) return { removed, header: [], footer: [] };
  const seen = new Map<string, { pages: Set<number>; first: { line: Line; page: number } }>();
  pages.forEach((page, index) => {
    for (const line of page.lines) {
      const top = line.box[3] <= page.height * EDGE;
      const bottom = line.box[1] >= page.height * (1 - EDGE);
      if (!top && !bottom) continue;
      const key = keyOf(line, page, top);
      const entry = seen.get(key) ?? { pages: new Set<number>(), first: { line, page: index } };
      entry.pages.add(index);
      seen.set(key, entry);
    }
  });
  const needed = Math.max(2, Math.ceil(pages.length * MIN_SHARE));
  const header: { line: Line; page: number }[] = [];
  const footer: { line: Line; page: number }[] = [];
  for (const [key, entry] of seen) {
    if (entry.pages.size < needed) continue;
    (key.startsWith("t") ? header : footer).push(entry.first);
    pages.forEach((page, index) => {
      for (const line of page.lines) {
        const top = line.box[3] <= page.height * EDGE;
        const bottom = line.box[1] >= page.height * (1 - EDGE);
        if ((top || bottom) && keyOf(line, page, top) === key) removed[index]?.add(line);
      }
    });
  }
  return { removed, header: toParagraphs(header), footer: toParagraphs(footer) };
}

function toParagraphs(lines: { line: Line; page: number }[]): Paragraph[] {
  return lines
    .sort((a, b) => a.line.box[1] - b.line.box[1] || a.line.box[0] - b.line.box[0])
    .map(({ line, page }) => ({
      type: "paragraph" as const,
      box: line.box,
      runs: runsOf(line.spans).flatMap((run, i) => {
        // A bare page number (digits or roman) is the PAGE field itself.
        if (pageless(line.text) === "#") return i === 0 ? [{ ...run, text: "#", pageNumber: true }] : [];
        // The number that is this page's number becomes a PAGE field.
        const parts = run.text.split(new RegExp(`(?<!\\d)(${page + 1})(?!\\d)`));
        if (parts.length === 1) return [run];
        return parts
          .filter((part) => part !== "")
          .map((part) =>
            part === String(page + 1) ? { ...run, text: part, pageNumber: true } : { ...run, text: part },
          );
      }),
      lines: 1,
      heading: 0,
      list: null,
      indent: 0,
      alignment: "left" as const,
    }));
}
