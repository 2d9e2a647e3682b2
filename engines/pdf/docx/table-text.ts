/**
 * Which text goes into which cell of a page's ruled grids. A line crossing a grid is cut into
 * phrases only where it has a gap (a space, or white between two glyphs) at a ruled cell edge of
 * its row, or a wide gap; each phrase goes whole to the cell holding most of its width (the first
 * of equals), or stays outside the table when most of it lies outside every grid. So a word or a
 * run of words that a rule happens to cross is never cut in two, and text beside a table is never
 * lost to it.
 */
import type { GridCell, RuledGrid } from "../ruled-grid.ts";
import { stackedRows } from "../stacked-rows.ts";
import { type Box, glyphGap, rightToLeft, type TextChar } from "../structured-text.ts";
import { linePiece } from "./lines.ts";
import type { Line } from "./model.ts";

/** Gaps wider than this many font sizes separate phrases anywhere. */
const WIDE_GAP = 0.6;
/** Glyphs at least this many font sizes apart are not letters of one word. */
const WORD_GAP = 0.15;

export interface TableText {
  /** Lines and pieces of lines outside every table, top to bottom. */
  readonly free: Line[];
  /** Per grid, per cell index (as in `grid.cells`), the pieces of lines inside it. */
  readonly cells: Line[][][];
  /** Per grid, how many of its pieces are parts of lines that run on outside every grid. */
  readonly crossing: number[];
}

interface Target {
  readonly grid: number;
  readonly cell: number;
  readonly x0: number;
  readonly x1: number;
}

export function distributeText(lines: readonly Line[], grids: readonly RuledGrid[]): TableText {
  const free: Line[] = [];
  const cells = grids.map((grid) => grid.cells.map((): Line[] => []));
  const crossing = grids.map(() => 0);
  for (const line of lines) {
    const targets = rowCells(line, grids);
    if (targets.length === 0) {
      free.push(line);
      continue;
    }
    const chars = line.spans.flatMap((span) => span.chars);
    let outside: number[] = [];
    let freed = false;
    const inGrids: number[] = [];
    const flushOutside = () => {
      const piece = outside.length > 0 ? linePiece(line, outside[0] ?? 0, (outside.at(-1) ?? 0) + 1) : null;
      if (piece !== null) {
        free.push(piece);
        freed = true;
      }
      outside = [];
    };
    for (const [from, to] of phrases(chars, targets, line.size)) {
      const target = bestTarget(chars.slice(from, to), targets);
      if (target === null) {
        for (let i = from; i < to; i++) outside.push(i);
        continue;
      }
      flushOutside();
      const piece = linePiece(line, from, to);
      if (piece !== null) {
        cells[target.grid]?.[target.cell]?.push(piece);
        inGrids.push(target.grid);
      }
    }
    flushOutside();
    if (freed) for (const g of inGrids) crossing[g] = (crossing[g] ?? 0) + 1;
  }
  for (const grid of cells) {
    for (const [c, cell] of grid.entries()) grid[c] = inRows(cell);
  }
  return { free, cells, crossing };
}

/**
 * A cell's lines top to bottom, those on one line left to right: pieces whose baselines differ by
 * less than half their size (a label and a value in another size or font) are one line.
 */
function inRows(lines: readonly Line[]): Line[] {
  const rows = baselineGroups([...lines].sort((a, b) => a.baseline - b.baseline));
  return rows.flatMap((row) =>
    rightToLeft(row.map((line) => line.text).join(""))
      ? row.sort((a, b) => b.box[2] - a.box[2])
      : row.sort((a, b) => a.box[0] - b.box[0]),
  );
}

/** The cells of the grids' rows the line runs through (by its vertical middle), left to right. */
function rowCells(line: Line, grids: readonly RuledGrid[]): Target[] {
  const middle = (line.box[1] + line.box[3]) / 2;
  const targets: Target[] = [];
  grids.forEach((grid, g) => {
    if (line.box[2] <= grid.box[0] || line.box[0] >= grid.box[2]) return;
    grid.cells.forEach((cell, c) => {
      if (middle >= cell.box[1] && middle < cell.box[3]) {
        targets.push({ grid: g, cell: c, x0: cell.box[0], x1: cell.box[2] });
      }
    });
  });
  return targets.sort((a, b) => a.x0 - b.x0);
}

/** [from, to) character ranges of the line's phrases. */
function phrases(chars: readonly TextChar[], targets: readonly Target[], size: number): [number, number][] {
  const edges = [...new Set(targets.flatMap((target) => [target.x0, target.x1]))];
  const result: [number, number][] = [];
  let start = 0;
  let previous = -1;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as TextChar;
    if (char.c.trim() === "") continue;
    const last = chars[previous];
    if (last !== undefined) {
      // Right-to-left text comes in reading order: its next glyph may lie to the left.
      const gap = glyphGap(last.box, char.box);
      const spaced = i > previous + 1 || gap > size * WORD_GAP;
      const [left, right] = [middleX(last), middleX(char)].sort((a, b) => a - b) as [number, number];
      const ruled = spaced && edges.some((x) => x > left && x < right);
      if (gap > size * WIDE_GAP || ruled) {
        result.push([start, previous + 1]);
        start = previous + 1;
      }
    }
    previous = i;
  }
  if (chars.length > start) result.push([start, chars.length]);
  return result;
}

const middleX = (char: TextChar) => (char.box[0] + char.box[2]) / 2;

/** The cell holding most of the phrase's glyph width, or null when most of it is outside them. */
function bestTarget(chars: readonly TextChar[], targets: readonly Target[]): Target | null {
  const widths = new Map<Target | null, number>();
  for (const char of chars) {
    if (char.c.trim() === "") continue;
    const [x0, , x1] = char.box;
    let inside = 0;
    for (const target of targets) {
      const overlap = Math.min(x1, target.x1) - Math.max(x0, target.x0);
      if (overlap <= 0) continue;
      inside += overlap;
      widths.set(target, (widths.get(target) ?? 0) + overlap);
    }
    // Glyph width outside every cell of the row (beside the table).
    const rest = x1 - x0 - inside;
    if (rest > 0) widths.set(null, (widths.get(null) ?? 0) + rest);
  }
  let best: Target | null = null;
  let most = 0;
  for (const [target, width] of widths) {
    if (width > most) {
      best = target;
      most = width;
    }
  }
  return best;
}

/**
 * The grid with each cell that spans several rows cut between its lines where they sit in
 * different rows: a form's column of line numbers or of labels drawn without the rules between
 * its rows, each of its lines belonging to the row of the grid it is in. Only a cell whose lines
 * are set apart (more white between them than a paragraph has) and mostly level with text in
 * other cells is cut; a wrapped paragraph in a merged cell stays whole.
 */
export function splitLevelCells(
  grid: RuledGrid,
  cellLines: readonly Line[][],
): { grid: RuledGrid; lines: Line[][] } {
  const cells: GridCell[] = [];
  const lines: Line[][] = [];
  const rowOf = (line: Line) => {
    const middle = (line.box[1] + line.box[3]) / 2;
    return grid.ys.findIndex((y, i) => middle >= y && middle < (grid.ys[i + 1] ?? y));
  };
  grid.cells.forEach((cell, c) => {
    const own = cellLines[c] ?? [];
    const rows = [...new Set(own.map(rowOf))].sort((a, b) => a - b);
    if (cell.rowSpan < 2 || rows.length < 2 || !setApart(own) || !mostlyLevel(own, cellLines, c)) {
      cells.push(cell);
      lines.push(own);
      return;
    }
    const starts = [cell.row, ...rows.slice(1)];
    starts.forEach((start, k) => {
      const end = starts[k + 1] ?? cell.row + cell.rowSpan;
      const top = grid.ys[start] ?? cell.box[1];
      const bottom = grid.ys[end] ?? cell.box[3];
      cells.push({ ...cell, row: start, rowSpan: end - start, box: [cell.box[0], top, cell.box[2], bottom] });
      lines.push(
        own.filter((line) => {
          const row = rowOf(line);
          return row >= start && row < end;
        }),
      );
    });
  });
  return { grid: { ...grid, cells }, lines };
}

const middleOf = (line: Line) => (line.box[1] + line.box[3]) / 2;
const heightOf = (line: Line) => line.box[3] - line.box[1];

/** The white between consecutive lines is usually more than half a line's height. */
function setApart(lines: readonly Line[]): boolean {
  const sorted = [...lines].sort((a, b) => a.box[1] - b.box[1]);
  const gaps = sorted.slice(1).map((line, i) => line.box[1] - (sorted[i] as Line).box[3]);
  const heights = sorted.map(heightOf).sort((a, b) => a - b);
  const height = heights[Math.floor(heights.length / 2)] ?? 0;
  return gaps.filter((gap) => gap > height * 0.5).length * 2 > gaps.length;
}

/** At least half of the cell's lines have their middle level with a line of another cell. */
function mostlyLevel(own: readonly Line[], cellLines: readonly Line[][], cell: number): boolean {
  const others = cellLines.flatMap((other, o) => (o === cell ? [] : other));
  const level = own.filter((line) =>
    others.some(
      (other) =>
        Math.abs(middleOf(other) - middleOf(line)) <= Math.min(heightOf(other), heightOf(line)) * 0.2,
    ),
  ).length;
  return level * 2 >= own.length;
}

/**
 * The grid with each row that holds one table row per line cut between its lines (a table ruled
 * between columns but not between rows: stacked-rows.ts). A row crossed by a cell spanning rows
 * stays whole.
 */
export function splitStackedRows(
  grid: RuledGrid,
  cellLines: readonly Line[][],
): { grid: RuledGrid; lines: Line[][] } {
  // Per grid row, the y of each cut inside it, and per cell index, its pieces per line.
  const cuts = new Map<number, number[]>();
  const perLine = new Map<number, Line[][]>();
  for (let r = 0; r < grid.ys.length - 1; r++) {
    const mine = grid.cells.flatMap((cell, c) => (cell.row === r ? [c] : []));
    const covered = grid.cells.some(
      (cell) => cell.row <= r && cell.row + cell.rowSpan > r && cell.rowSpan > 1,
    );
    if (covered) continue;
    const lines = mine.map((c) => baselineGroups(cellLines[c] ?? []));
    const count = stackedRows(
      lines.map((cell) =>
        cell.map((line) => ({
          middle: middleOf(line[0] as Line),
          size: (line[0] as Line).size,
          text: line.map((piece) => piece.text).join(" "),
        })),
      ),
    );
    if (count < 2) continue;
    const filled = lines.filter((cell) => cell.length > 0);
    const ys: number[] = [];
    for (let k = 1; k < count; k++) {
      const bottom = Math.max(...filled.flatMap((cell) => (cell[k - 1] ?? []).map((line) => line.box[3])));
      const top = Math.min(...filled.flatMap((cell) => (cell[k] ?? []).map((line) => line.box[1])));
      ys.push((bottom + top) / 2);
    }
    cuts.set(r, ys);
    for (const [i, c] of mine.entries()) perLine.set(c, lines[i] ?? []);
  }
  if (cuts.size === 0) return { grid, lines: cellLines.map((lines) => [...lines]) };
  const ys = grid.ys.flatMap((y, r) => [y, ...(cuts.get(r) ?? [])]);
  // Where an old row boundary lands among the new ones.
  const at = (row: number) => ys.indexOf(grid.ys[row] ?? Number.NaN);
  const cells: GridCell[] = [];
  const lines: Line[][] = [];
  grid.cells.forEach((cell, c) => {
    const split = cuts.get(cell.row);
    if (split === undefined) {
      cells.push({ ...cell, row: at(cell.row), rowSpan: at(cell.row + cell.rowSpan) - at(cell.row) });
      lines.push(cellLines[c] ?? []);
      return;
    }
    const own = perLine.get(c) ?? [];
    for (let k = 0; k <= split.length; k++) {
      const row = at(cell.row) + k;
      const box: Box = [cell.box[0], ys[row] ?? cell.box[1], cell.box[2], ys[row + 1] ?? cell.box[3]];
      cells.push({ ...cell, row, rowSpan: 1, box });
      lines.push(own[k] ?? []);
    }
  });
  return { grid: { ...grid, ys, cells }, lines };
}

/**
 * Pieces in top-to-bottom order grouped into visual lines: a piece whose baseline is within half
 * the smaller size of its line's first piece joins that line.
 */
function baselineGroups(pieces: readonly Line[]): Line[][] {
  const result: Line[][] = [];
  for (const piece of pieces) {
    const line = result.at(-1);
    const first = line?.[0];
    if (
      line !== undefined &&
      first !== undefined &&
      piece.baseline - first.baseline < Math.min(first.size, piece.size) * 0.5
    )
      line.push(piece);
    else result.push([piece]);
  }
  return result;
}
