/** A table found on a page: a grid of cells, some merged, and where it lies. */
import type { Box } from "../structured-text.ts";

export interface TableCell {
  readonly text: string;
  readonly rowSpan: number;
  readonly colSpan: number;
  readonly bold: boolean;
}

/** A grid row: a cell where one starts, null where a merged cell covers the position. */
export type TableRow = (TableCell | null)[];

export interface Table {
  /** 1-based page number. */
  readonly page: number;
  readonly box: Box;
  /** x of the column boundaries, left to right (columns + 1 values). */
  readonly columns: readonly number[];
  readonly rows: TableRow[];
  /** Rows at the top that label the columns. */
  readonly headerRows: number;
  readonly ruled: boolean;
}

export function emptyCell(): TableCell {
  return { text: "", rowSpan: 1, colSpan: 1, bold: false };
}

/** The texts of a row's positions ("" under merged cells), to compare rows. */
export function rowTexts(row: TableRow): string[] {
  return row.map((cell) => cell?.text ?? "");
}

/**
 * The header rows of a grid: the leading rows above the first row that holds a number or a date
 * (at most 3, and never every row), or the first row alone when the table has no numbers and
 * its first row is bold or differs in kind from the rest.
 */
export function headerRowCount(rows: readonly TableRow[], isValue: (text: string) => boolean): number {
  const firstValueRow = rows.findIndex((row) => row.some((cell) => cell !== null && isValue(cell.text)));
  if (firstValueRow > 0 && firstValueRow <= 3 && firstValueRow < rows.length) return firstValueRow;
  if (rows.length < 2) return 0;
  const first = rows[0] ?? [];
  const filled = first.filter((cell) => cell !== null && cell.text !== "");
  if (filled.length === 0) return 0;
  return filled.every((cell) => cell?.bold) || firstValueRow > 0 || firstValueRow === -1 ? 1 : 0;
}

/**
 * In the header of a borderless table, a column whose header rows hold one label and nothing
 * spans over it (as "Date" beside "Amount" over "Debit | Credit") has that label merged over all
 * the header rows.
 */
export function mergeHeaderDown(rows: readonly TableRow[], headerRows: number): TableRow[] {
  const out = rows.map((row) => [...row]);
  if (headerRows < 2) return out;
  const width = out[0]?.length ?? 0;
  for (let c = 0; c < width; c++) {
    const cells = out.slice(0, headerRows).map((row) => row[c]);
    if (cells.some((cell) => cell === null || cell === undefined || cell.colSpan > 1)) continue;
    const labelled = cells.filter((cell) => cell?.text !== "");
    const label = labelled[0];
    if (labelled.length !== 1 || label === null || label === undefined) continue;
    (out[0] ?? [])[c] = { ...label, rowSpan: headerRows };
    for (let r = 1; r < headerRows; r++) (out[r] ?? [])[c] = null;
  }
  return out;
}
