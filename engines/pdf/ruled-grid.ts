/**
 * Tables drawn with rules: the vector lines of a page (structured-text.ts) grouped into grids of
 * crossing horizontal and vertical rules. Each grid gives its column and row edges and its cells,
 * with a cell spanning several columns or rows where the rule between them is missing (merged
 * cells). Tables with horizontal rules only (no vertical ones) are not grids and are not found
 * here.
 */
import type { Box, Rule } from "./structured-text.ts";

export interface GridCell {
  readonly row: number;
  readonly column: number;
  readonly rowSpan: number;
  readonly columnSpan: number;
  readonly box: Box;
}

export interface RuledGrid {
  readonly box: Box;
  /** Column edges, left to right (columns + 1 values). */
  readonly xs: readonly number[];
  /** Row edges, top to bottom (rows + 1 values). */
  readonly ys: readonly number[];
  readonly cells: readonly GridCell[];
}

/** Rules closer than this (points) are one edge. */
const SNAP = 2;
/** Rules shorter than this are ticks or glyph parts, not table borders. */
const MIN_RULE = 4;
const MAX_RULES = 4000;

interface Segment {
  at: number;
  from: number;
  to: number;
}

/** The ruled grids of a page with at least two cells, top to bottom. */
export function findRuledGrids(rules: readonly Rule[]): RuledGrid[] {
  // Pages of thousands of strokes are drawings or charts; pairing every rule would be slow there.
  if (rules.length > MAX_RULES) return [];
  const horizontal = mergeSegments(rules.filter((rule) => rule.orientation === "horizontal"));
  const vertical = mergeSegments(rules.filter((rule) => rule.orientation === "vertical"));
  const parent = [...horizontal, ...vertical].map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root] ?? root;
    parent[i] = root;
    return root;
  };
  horizontal.forEach((h, i) => {
    vertical.forEach((v, j) => {
      if (crosses(h, v)) parent[find(i)] = find(horizontal.length + j);
    });
  });
  const groups = new Map<number, { h: Segment[]; v: Segment[] }>();
  horizontal.forEach((h, i) => {
    groupOf(groups, find(i)).h.push(h);
  });
  vertical.forEach((v, j) => {
    groupOf(groups, find(horizontal.length + j)).v.push(v);
  });
  const grids: RuledGrid[] = [];
  for (const { h, v } of groups.values()) {
    if (h.length < 2 || v.length < 2) continue;
    const grid = gridOf(h, v);
    if (grid !== null) grids.push(grid);
  }
  return grids.sort((a, b) => a.box[1] - b.box[1]);
}

function groupOf(groups: Map<number, { h: Segment[]; v: Segment[] }>, root: number) {
  let group = groups.get(root);
  if (group === undefined) {
    group = { h: [], v: [] };
    groups.set(root, group);
  }
  return group;
}

function crosses(h: Segment, v: Segment): boolean {
  return v.at >= h.from - SNAP && v.at <= h.to + SNAP && h.at >= v.from - SNAP && h.at <= v.to + SNAP;
}

/** Collinear rules that overlap or touch, joined. */
function mergeSegments(rules: readonly Rule[]): Segment[] {
  const sorted = rules
    .map((rule) => ({ at: rule.at, from: rule.from, to: rule.to }))
    .sort((a, b) => a.at - b.at || a.from - b.from);
  const merged: Segment[] = [];
  for (const rule of sorted) {
    const same = merged.find(
      (segment) =>
        Math.abs(segment.at - rule.at) <= SNAP &&
        rule.from <= segment.to + SNAP &&
        rule.to >= segment.from - SNAP,
    );
    if (same) {
      same.from = Math.min(same.from, rule.from);
      same.to = Math.max(same.to, rule.to);
    } else {
      merged.push({ ...rule });
    }
  }
  return merged.filter((segment) => segment.to - segment.from >= MIN_RULE);
}

/** Positions closer than SNAP merged into their mean. */
function edges(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const value of sorted) {
    const last = clusters.at(-1);
    if (last !== undefined && value - (last.at(-1) ?? value) <= SNAP) last.push(value);
    else clusters.push([value]);
  }
  return clusters.map((cluster) => cluster.reduce((sum, value) => sum + value, 0) / cluster.length);
}

function gridOf(h: readonly Segment[], v: readonly Segment[]): RuledGrid | null {
  const xs = edges(v.map((segment) => segment.at));
  const ys = edges(h.map((segment) => segment.at));
  const columns = xs.length - 1;
  const rows = ys.length - 1;
  if (columns < 1 || rows < 1 || columns * rows < 2) return null;
  const covered = (segments: readonly Segment[], at: number, from: number, to: number) =>
    segments.some(
      (segment) =>
        Math.abs(segment.at - at) <= SNAP &&
        Math.min(segment.to, to) - Math.max(segment.from, from) >= (to - from) * 0.6,
    );
  const ruledRight = (row: number, column: number) =>
    covered(v, xs[column + 1] ?? 0, ys[row] ?? 0, ys[row + 1] ?? 0);
  const ruledBelow = (row: number, column: number) =>
    covered(h, ys[row + 1] ?? 0, xs[column] ?? 0, xs[column + 1] ?? 0);
  const taken: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(columns).fill(false));
  const cells: GridCell[] = [];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      if (taken[row]?.[column]) continue;
      let columnSpan = 1;
      while (column + columnSpan < columns && !ruledRight(row, column + columnSpan - 1)) columnSpan++;
      let rowSpan = 1;
      const open = (r: number) => {
        for (let c = column; c < column + columnSpan; c++) if (ruledBelow(r, c)) return false;
        return true;
      };
      while (row + rowSpan < rows && open(row + rowSpan - 1)) rowSpan++;
      for (let r = row; r < row + rowSpan; r++) {
        for (let c = column; c < column + columnSpan; c++) {
          const line = taken[r];
          if (line) line[c] = true;
        }
      }
      cells.push({
        row,
        column,
        rowSpan,
        columnSpan,
        box: [xs[column] ?? 0, ys[row] ?? 0, xs[column + columnSpan] ?? 0, ys[row + rowSpan] ?? 0],
      });
    }
  }
  const box: Box = [xs[0] ?? 0, ys[0] ?? 0, xs.at(-1) ?? 0, ys.at(-1) ?? 0];
  if (box[2] - box[0] < 20 || box[3] - box[1] < 8) return null;
  return { box, xs, ys, cells };
}
