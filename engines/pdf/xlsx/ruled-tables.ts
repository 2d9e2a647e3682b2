/**
 * Tables drawn with vector lines: the grids of the page's rules (ruled-grid.ts, shared with PDF to
 * Word) with at least 2 columns and 2 rows; every word goes to the cell its centre lies in, and a
 * cell's lines are joined. A grid of one row and 2 or more columns is kept apart, with its words
 * left among the page's others: it may be the last row of the previous page's table, carried
 * over (a browser breaks a table between any two rows).
 */
import { findRuledGrids, type RuledGrid } from "../ruled-grid.ts";
import { stackedRows } from "../stacked-rows.ts";
import type { Rule } from "../structured-text.ts";
import { centerX, centerY, joinWords, type Word } from "./page-words.ts";
import type { Table, TableRow } from "./table-model.ts";

export interface RuledResult {
  readonly tables: Omit<Table, "headerRows">[];
  /** Words not inside any table (those of the lone rows among them). */
  readonly rest: Word[];
  /** Grids of one row, top to bottom, with their words. */
  readonly loneRows: { readonly table: Omit<Table, "headerRows">; readonly words: Word[] }[];
}

export function findRuledTables(page: number, rules: readonly Rule[], words: readonly Word[]): RuledResult {
  const tables: Omit<Table, "headerRows">[] = [];
  const loneRows: RuledResult["loneRows"][number][] = [];
  let rest = [...words];
  for (const grid of findRuledGrids(rules)) {
    // One column of boxes is a frame: its text is left to the borderless finder; so is one row's,
    // kept aside too.
    if (grid.xs.length < 3 || grid.ys.length < 2) continue;
    const { box } = grid;
    const inside = (word: Word) => {
      const x = centerX(word.box);
      const y = centerY(word.box);
      return x > box[0] && x < box[2] && y > box[1] && y < box[3];
    };
    const mine = rest.filter(inside);
    if (mine.length === 0) continue;
    const table = { page, box, columns: grid.xs, rows: fillGrid(grid, mine), ruled: true };
    if (grid.ys.length === 2) {
      loneRows.push({ table, words: mine });
      continue;
    }
    rest = rest.filter((word) => !inside(word));
    tables.push(table);
  }
  loneRows.sort((a, b) => a.table.box[1] - b.table.box[1]);
  return { tables, rest, loneRows };
}

/** The grid's cells (a position already taken by a merged cell stays with it), with their words. */
function fillGrid(grid: RuledGrid, words: readonly Word[]): TableRow[] {
  const { xs, ys } = grid;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const owner: (number | undefined)[][] = Array.from({ length: rows }, () => Array(cols));
  const cells = grid.cells.filter((cell, index) => {
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++)
      for (let c = cell.column; c < cell.column + cell.columnSpan; c++)
        if (owner[r]?.[c] !== undefined) return false;
    for (let r = cell.row; r < cell.row + cell.rowSpan; r++)
      for (let c = cell.column; c < cell.column + cell.columnSpan; c++) (owner[r] ?? [])[c] = index;
    return true;
  });
  const texts = new Map<number, Word[]>();
  for (const word of words) {
    const index = owner[slot(ys, centerY(word.box))]?.[slot(xs, centerX(word.box))];
    if (index !== undefined) texts.set(index, [...(texts.get(index) ?? []), word]);
  }
  // null where a merged cell covers the position (or, in a broken grid, no cell claims it).
  const table: TableRow[] = [];
  for (let r = 0; r < rows; r++) {
    const mine = cells.filter((cell) => cell.row === r);
    const lines = mine.map((cell) => cellLines(texts.get(grid.cells.indexOf(cell)) ?? []));
    const spanned = (owner[r] ?? []).some(
      (index) => index !== undefined && (grid.cells[index]?.row ?? r) !== r,
    );
    const stacked =
      spanned || mine.some((cell) => cell.rowSpan > 1)
        ? 1
        : stackedRows(lines.map((cell) => cell.map(cellLine)));
    for (let line = 0; line < stacked; line++) {
      const row: TableRow = Array(cols).fill(null);
      for (const [i, cell] of mine.entries()) {
        const cellWords = stacked === 1 ? (lines[i] ?? []).flat() : (lines[i]?.[line] ?? []);
        row[cell.column] = {
          text: cellText(cellWords),
          rowSpan: cell.rowSpan,
          colSpan: cell.columnSpan,
          bold: cellWords.length > 0 && cellWords.every((word) => word.bold),
        };
      }
      table.push(row);
    }
  }
  return table;
}

/** A line of a cell's words as the shared row finder reads it. */
function cellLine(line: readonly Word[]) {
  return { middle: centerY(line[0]?.box ?? [0, 0, 0, 0]), size: line[0]?.size ?? 0, text: joinWords(line) };
}

/** A cell's words as lines top to bottom (by centre), each left to right. */
function cellLines(words: readonly Word[]): Word[][] {
  const lines: Word[][] = [];
  for (const word of [...words].sort((a, b) => centerY(a.box) - centerY(b.box))) {
    const line = lines.find((l) => {
      const first = l[0];
      return first !== undefined && Math.abs(centerY(first.box) - centerY(word.box)) < first.size * 0.5;
    });
    if (line === undefined) lines.push([word]);
    else line.push(word);
  }
  return lines.map((line) => line.sort((a, b) => a.box[0] - b.box[0]));
}

/** Index of the interval of `bounds` holding `value`. */
function slot(bounds: readonly number[], value: number): number {
  for (let i = 1; i < bounds.length; i++) if (value < (bounds[i] ?? 0)) return i - 1;
  return bounds.length - 2;
}

/** A cell's words in reading order: lines top to bottom (by centre), each left to right; lines joined by a space. */
export function cellText(words: readonly Word[]): string {
  return cellLines(words)
    .map((line) => joinWords(line))
    .join(" ");
}
