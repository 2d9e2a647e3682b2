/**
 * Tables ruled between columns but not between rows (tbl's "box" tables in groff man pages,
 * LaTeX's tabular without \hline): the body is one row of the ruled grid, each cell holding one
 * line per table row. Shared by PDF to Excel and PDF to Word.
 */
import { isDataValue } from "./xlsx/cell-values.ts";

/** One line of a cell's text. */
export interface CellLine {
  /** Vertical centre of the line's first word or piece, points. */
  readonly middle: number;
  readonly size: number;
  readonly text: string;
}

/**
 * How many table rows one grid row holds, given each of its cells' lines top to bottom: that many
 * lines when every cell with text has the same number of them, two or more, on the same baselines,
 * and a column holds a value on each ("North" over "South" beside "1200" over "980"); else 1, the
 * lines of a cell one wrapped text (a description over two lines beside one-line values).
 */
export function stackedRows(cells: readonly (readonly CellLine[])[]): number {
  const filled = cells.filter((cell) => cell.length > 0);
  const count = filled[0]?.length ?? 0;
  if (filled.length < 2 || count < 2 || filled.some((cell) => cell.length !== count)) return 1;
  for (let line = 0; line < count; line++) {
    const centres = filled.map((cell) => cell[line]?.middle ?? 0);
    const size = Math.min(...filled.map((cell) => cell[line]?.size ?? 0));
    if (Math.max(...centres) - Math.min(...centres) > size * 0.5) return 1;
  }
  return filled.some((cell) => cell.every((line) => isDataValue(line.text))) ? count : 1;
}
