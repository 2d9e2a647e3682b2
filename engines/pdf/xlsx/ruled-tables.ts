/**
 * Tables drawn with vector lines: the page's horizontal and vertical rules are joined into grids
 * (rules that touch or cross belong together); each grid's distinct x and y positions are its
 * column and row boundaries, a boundary missing inside a row or column merges the cells on either
 * side, and every word goes to the cell its centre lies in.
 */
import type { Box, Rule } from "../structured-text.ts";
import { centerX, centerY, type Word } from "./page-words.ts";
import type { Table, TableCell, TableRow } from "./table-model.ts";

/** Rules this close (points) are the same line; ends this close touch. */
const SNAP = 2;
/** Grid columns or rows thinner than this are double lines, not cells. */
const MIN_CELL = 4;

interface Grid {
  readonly xs: number[];
  readonly ys: number[];
  readonly horizontal: Rule[];
  readonly vertical: Rule[];
}

export interface RuledResult {
  readonly tables: Omit<Table, "headerRows">[];
  /** Words not inside any table. */
  readonly rest: Word[];
}

export function findRuledTables(page: number, rules: readonly Rule[], words: readonly Word[]): RuledResult {
  const grids = gridsOf(rules);
  const tables: Omit<Table, "headerRows">[] = [];
  let rest = [...words];
  for (const grid of grids) {
    const box: Box = [grid.xs[0] ?? 0, grid.ys[0] ?? 0, grid.xs.at(-1) ?? 0, grid.ys.at(-1) ?? 0];
    const inside = (word: Word) => {
      const x = centerX(word.box);
      const y = centerY(word.box);
      return x > box[0] && x < box[2] && y > box[1] && y < box[3];
    };
    const mine = rest.filter(inside);
    if (mine.length === 0) continue;
    rest = rest.filter((word) => !inside(word));
    tables.push({ page, box, columns: grid.xs, rows: fillGrid(grid, mine), ruled: true });
  }
  return { tables, rest };
}

/** Connected sets of rules with at least 2 columns and 2 rows of cells. */
function gridsOf(rules: readonly Rule[]): Grid[] {
  const horizontal = mergeCollinear(rules.filter((rule) => rule.orientation === "horizontal"));
  const vertical = mergeCollinear(rules.filter((rule) => rule.orientation === "vertical"));
  const all = [...horizontal, ...vertical];
  const parent = all.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] ?? i] ?? i;
    return i;
  };
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (crosses(h, v)) parent[find(i)] = find(horizontal.length + j);
    });
  });
  const groups = new Map<number, Rule[]>();
  all.forEach((rule, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), rule]);
  });
  const grids: Grid[] = [];
  for (const group of groups.values()) {
    const h = group.filter((rule) => rule.orientation === "horizontal");
    const v = group.filter((rule) => rule.orientation === "vertical");
    const xs = positions(v.map((rule) => rule.at));
    const ys = positions(h.map((rule) => rule.at));
    if (xs.length >= 3 && ys.length >= 3) grids.push({ xs, ys, horizontal: h, vertical: v });
  }
  return grids.sort((a, b) => (a.ys[0] ?? 0) - (b.ys[0] ?? 0));
}

function crosses(h: Rule, v: Rule): boolean {
  return v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP;
}

/** Joins rules on the same line that touch or overlap. */
function mergeCollinear(rules: readonly Rule[]): Rule[] {
  const sorted = [...rules].sort((a, b) => a.at - b.at || a.from - b.from);
  const merged: Rule[] = [];
  for (const rule of sorted) {
    const same = merged.findLast(
      (other) => Math.abs(other.at - rule.at) <= SNAP / 2 && rule.from <= other.to + SNAP,
    );
    if (same === undefined) {
      merged.push(rule);
      continue;
    }
    merged[merged.indexOf(same)] = {
      ...same,
      to: Math.max(same.to, rule.to),
      from: Math.min(same.from, rule.from),
    };
  }
  return merged;
}

/** Distinct positions, those closer than MIN_CELL counting as one. */
function positions(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[] = [];
  for (const value of sorted) {
    const last = out.at(-1);
    if (last === undefined || value - last >= MIN_CELL) out.push(value);
  }
  return out;
}

function covered(rules: readonly Rule[], at: number, from: number, to: number): boolean {
  const middle = (from + to) / 2;
  return rules.some((rule) => Math.abs(rule.at - at) < MIN_CELL && rule.from <= middle && rule.to >= middle);
}

/** The grid's cells, merged where a boundary is missing, holding the words whose centre they contain. */
function fillGrid(grid: Grid, words: readonly Word[]): TableRow[] {
  const { xs, ys } = grid;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const owner: [number, number][][] = Array.from({ length: rows }, () => Array(cols));
  const spans: { r: number; c: number; rowSpan: number; colSpan: number }[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (owner[r]?.[c] !== undefined) continue;
      let colSpan = 1;
      while (
        c + colSpan < cols &&
        owner[r]?.[c + colSpan] === undefined &&
        !covered(grid.vertical, xs[c + colSpan] ?? 0, ys[r] ?? 0, ys[r + 1] ?? 0)
      )
        colSpan++;
      let rowSpan = 1;
      const open = (row: number) => {
        for (let k = c; k < c + colSpan; k++)
          if (covered(grid.horizontal, ys[row] ?? 0, xs[k] ?? 0, xs[k + 1] ?? 0)) return false;
        return true;
      };
      while (r + rowSpan < rows && open(r + rowSpan)) rowSpan++;
      for (let i = r; i < r + rowSpan; i++)
        for (let k = c; k < c + colSpan; k++) (owner[i] ?? [])[k] = [r, c];
      spans.push({ r, c, rowSpan, colSpan });
    }
  }
  const texts = new Map<string, Word[]>();
  for (const word of words) {
    const r = slot(ys, centerY(word.box));
    const c = slot(xs, centerX(word.box));
    const [or, oc] = owner[r]?.[c] ?? [r, c];
    const key = `${or},${oc}`;
    texts.set(key, [...(texts.get(key) ?? []), word]);
  }
  const grid2: TableRow[] = Array.from({ length: rows }, () => Array<TableCell | null>(cols).fill(null));
  for (const { r, c, rowSpan, colSpan } of spans) {
    const cellWords = texts.get(`${r},${c}`) ?? [];
    const row = grid2[r];
    if (row !== undefined)
      row[c] = {
        text: cellText(cellWords),
        rowSpan,
        colSpan,
        bold: cellWords.length > 0 && cellWords.every((w) => w.bold),
      };
  }
  return grid2;
}

/** Index of the interval of `bounds` holding `value`. */
function slot(bounds: readonly number[], value: number): number {
  for (let i = 1; i < bounds.length; i++) if (value < (bounds[i] ?? 0)) return i - 1;
  return bounds.length - 2;
}

/** A cell's words in reading order: lines top to bottom (by centre), each left to right; lines joined by a space. */
export function cellText(words: readonly Word[]): string {
  const lines: Word[][] = [];
  for (const word of [...words].sort((a, b) => centerY(a.box) - centerY(b.box))) {
    const line = lines.find((l) => {
      const first = l[0];
      return first !== undefined && Math.abs(centerY(first.box) - centerY(word.box)) < first.size * 0.5;
    });
    if (line === undefined) lines.push([word]);
    else line.push(word);
  }
  return lines
    .map((line) =>
      line
        .sort((a, b) => a.box[0] - b.box[0])
        .map((word) => word.text)
        .join(" "),
    )
    .join(" ");
}
