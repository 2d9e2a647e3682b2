/**
 * Headings and list levels over the whole document. The body size is the size most characters
 * have; a short paragraph clearly larger than it is a heading, larger sizes ranking higher, and a
 * short all-bold line at body size is the lowest heading level. A size that would make a large
 * share of the paragraphs headings is body text of its own (e.g. a large-print section) instead.
 */
import type { Block, PageModel, Paragraph } from "./model.ts";

const MAX_LEVEL = 6;

export function markHeadings(pages: readonly PageModel[]): number {
  const paragraphs = pages.flatMap((page) =>
    page.blocks.filter((block): block is Paragraph => block.type === "paragraph"),
  );
  const body = bodySize(paragraphs);
  const classes = new Map<string, Paragraph[]>();
  for (const paragraph of paragraphs) {
    const key = headingClass(paragraph, body);
    if (key === null) continue;
    const list = classes.get(key) ?? [];
    list.push(paragraph);
    classes.set(key, list);
  }
  const limit = Math.max(12, paragraphs.length * 0.3);
  const sizes = [...classes.keys()]
    .filter((key) => key !== "bold" && (classes.get(key)?.length ?? 0) <= limit)
    .map(Number)
    .sort((a, b) => b - a);
  let found = 0;
  sizes.forEach((size, rank) => {
    for (const paragraph of classes.get(String(size)) ?? []) {
      asHeading(paragraph, Math.min(MAX_LEVEL, rank + 1));
      found++;
    }
  });
  const bold = classes.get("bold") ?? [];
  if (bold.length <= limit) {
    for (const paragraph of bold) {
      asHeading(paragraph, Math.min(MAX_LEVEL, sizes.length + 1));
      found++;
    }
  }
  return found;
}

/** A numbered heading keeps its number as text and leaves the list. */
function asHeading(paragraph: Paragraph, level: number): void {
  paragraph.heading = level;
  const list = paragraph.list;
  if (list === null) return;
  const first = paragraph.runs[0];
  if (first !== undefined) paragraph.runs = [{ ...first, text: `${list.marker} ` }, ...paragraph.runs];
  paragraph.list = null;
}

function stats(paragraph: Paragraph): { size: number; bold: number; letters: number; text: string } {
  let weighted = 0;
  let count = 0;
  let bold = 0;
  for (const run of paragraph.runs) {
    const n = run.text.replace(/\s/g, "").length;
    weighted += run.size * n;
    count += n;
    if (run.bold) bold += n;
  }
  const text = paragraph.runs
    .map((run) => run.text)
    .join("")
    .trim();
  return {
    size: count === 0 ? 0 : weighted / count,
    bold: count === 0 ? 0 : bold / count,
    letters: (text.match(/\p{L}/gu) ?? []).length,
    text,
  };
}

function bodySize(paragraphs: readonly Paragraph[]): number {
  const counts = new Map<number, number>();
  for (const paragraph of paragraphs) {
    for (const run of paragraph.runs) {
      const size = Math.round(run.size * 2) / 2;
      counts.set(size, (counts.get(size) ?? 0) + run.text.length);
    }
  }
  let body = 10;
  let most = -1;
  for (const [size, count] of counts) {
    if (count > most) {
      body = size;
      most = count;
    }
  }
  return body;
}

function headingClass(paragraph: Paragraph, body: number): string | null {
  if (paragraph.lines > 3) return null;
  // A numbered line set like a heading ("2. Results" in bold or larger) is a numbered heading.
  if (paragraph.list !== null && (paragraph.list.kind === "bullet" || paragraph.lines > 1)) return null;
  const { size, bold, letters, text } = stats(paragraph);
  if (letters < 2 || text.length > 160 || /[.,;]$/.test(text)) return null;
  if (size >= body * 1.15 && size - body >= 1) return String(Math.round(size));
  const words = text.split(/\s+/).length;
  if (bold >= 0.9 && size >= body - 0.5 && paragraph.lines === 1 && words <= 12 && !/:$/.test(text))
    return "bold";
  return null;
}

/** List levels from the indentation of consecutive list items (deeper indent, deeper level). */
export function markListLevels(blocks: Block[]): void {
  let run: number[] = [];
  const flush = () => {
    const indents = [...new Set(run.map((i) => Math.round((blocks[i] as Paragraph).indent / 6)))].sort(
      (a, b) => a - b,
    );
    for (const i of run) {
      const paragraph = blocks[i] as Paragraph;
      if (paragraph.list === null) continue;
      const level = Math.min(8, indents.indexOf(Math.round(paragraph.indent / 6)));
      blocks[i] = { ...paragraph, list: { ...paragraph.list, level: Math.max(0, level) } };
    }
    run = [];
  };
  blocks.forEach((block, i) => {
    if (block.type === "paragraph" && block.list !== null) run.push(i);
    else flush();
  });
  flush();
}
