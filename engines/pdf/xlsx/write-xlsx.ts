/**
 * The workbook (exceljs): one worksheet per table, named after its page(s) and position; header
 * rows bold and frozen; numbers and dates as typed cells with the number format of their text;
 * merged cells merged; columns as wide as their text; a table of Arabic or Hebrew mirrored, its
 * first column the page's rightmost, on a sheet shown right to left. Text outside the tables can
 * go on a last "Text" sheet.
 */
import ExcelJS from "exceljs";
import { rightToLeft } from "../structured-text.ts";
import { type Conventions, typedValue } from "./cell-values.ts";
import type { JoinedTable } from "./join-pages.ts";
import type { TableRow } from "./table-model.ts";

export interface PageText {
  readonly page: number;
  readonly lines: readonly string[];
}

export interface WorkbookFacts {
  readonly sheets: number;
  readonly cells: number;
  readonly numbers: number;
  readonly dates: number;
}

/** Excel's limits on a column width (characters) that still reads well. */
const MIN_WIDTH = 6;
const MAX_WIDTH = 60;

/** The row with its positions in the opposite order, each cell starting where its right edge was. */
function mirrored(row: TableRow): TableRow {
  const out: TableRow = row.map(() => null);
  row.forEach((cell, c) => {
    if (cell !== null) out[row.length - c - cell.colSpan] = cell;
  });
  return out;
}

export async function writeWorkbook(
  tables: readonly JoinedTable[],
  text: readonly PageText[],
  conventions: Conventions,
): Promise<{ bytes: Uint8Array; facts: WorkbookFacts }> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "PDF to Excel";
  const counts = { cells: 0, numbers: 0, dates: 0 };
  const names = sheetNames(tables);
  tables.forEach((found, i) => {
    // A table of Arabic or Hebrew reads from the right: its first column is the page's
    // rightmost, and the sheet is shown right to left as the page is.
    const rtl = rightToLeft(found.rows.flatMap((row) => row.map((cell) => cell?.text ?? "")).join(""));
    const table = rtl ? { ...found, rows: found.rows.map(mirrored) } : found;
    const view = rtl ? { rightToLeft: true } : {};
    const sheet = workbook.addWorksheet(names[i] ?? `Table ${i + 1}`, {
      views:
        table.headerRows > 0 ? [{ state: "frozen", ySplit: table.headerRows, ...view }] : rtl ? [view] : [],
    });
    const widths: number[] = [];
    const merged = new Set<string>();
    table.rows.forEach((row, r) => {
      row.forEach((cell, c) => {
        if (cell === null) return;
        const target = sheet.getCell(r + 1, c + 1);
        const header = r < table.headerRows;
        const typed = header
          ? ({ kind: "text", value: cell.text } as const)
          : typedValue(cell.text, conventions);
        target.value = typed.value;
        if (typed.kind !== "text") {
          target.numFmt = typed.format;
          if (typed.kind === "number") counts.numbers++;
          else counts.dates++;
        }
        if (cell.text !== "") counts.cells++;
        if (header || cell.bold) target.font = { bold: true };
        if ((cell.rowSpan > 1 || cell.colSpan > 1) && claim(merged, r, c, cell.rowSpan, cell.colSpan)) {
          sheet.mergeCells(r + 1, c + 1, r + cell.rowSpan, c + cell.colSpan);
          target.alignment = { horizontal: "center", vertical: "middle", wrapText: true };
          return;
        }
        const length = cell.text.length;
        if (length > MAX_WIDTH) target.alignment = { wrapText: true, vertical: "top" };
        widths[c] = Math.max(widths[c] ?? 0, length);
      });
    });
    const columns = table.columns.length - 1;
    for (let c = 0; c < columns; c++) {
      sheet.getColumn(c + 1).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, (widths[c] ?? 0) + 2));
    }
  });
  if (text.some((page) => page.lines.length > 0)) {
    const sheet = workbook.addWorksheet(uniqueName("Text", new Set(names)));
    let longest = 0;
    for (const page of text) {
      for (const line of page.lines) {
        sheet.addRow([page.page, line]);
        longest = Math.max(longest, line.length);
      }
    }
    sheet.getColumn(1).width = MIN_WIDTH;
    sheet.getColumn(2).width = Math.min(MAX_WIDTH * 2, Math.max(MIN_WIDTH, longest + 2));
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return {
    bytes: new Uint8Array(buffer as ArrayBuffer),
    facts: { sheets: workbook.worksheets.length, ...counts },
  };
}

/**
 * "Page 3" for the only table of a page, "Page 3 Table 2" for one of several, "Pages 3-4" for a
 * table that goes on over pages.
 */
function sheetNames(tables: readonly JoinedTable[]): string[] {
  const perPage = new Map<number, number>();
  for (const table of tables) perPage.set(table.page, (perPage.get(table.page) ?? 0) + 1);
  const seen = new Map<number, number>();
  const used = new Set<string>();
  return tables.map((table) => {
    const index = (seen.get(table.page) ?? 0) + 1;
    seen.set(table.page, index);
    const pages =
      table.lastPage > table.page ? `Pages ${table.page}-${table.lastPage}` : `Page ${table.page}`;
    const name = (perPage.get(table.page) ?? 1) > 1 ? `${pages} Table ${index}` : pages;
    const unique = uniqueName(name, used);
    used.add(unique);
    return unique;
  });
}

/** Marks a merged range's positions as taken; false (nothing marked) when one already is. */
function claim(taken: Set<string>, row: number, col: number, rows: number, cols: number): boolean {
  const keys: string[] = [];
  for (let r = row; r < row + rows; r++) for (let c = col; c < col + cols; c++) keys.push(`${r},${c}`);
  if (keys.some((key) => taken.has(key))) return false;
  for (const key of keys) taken.add(key);
  return true;
}

/** Sheet names are at most 31 characters and unique. */
function uniqueName(name: string, used: ReadonlySet<string>): string {
  let candidate = name.slice(0, 31);
  for (let i = 2; used.has(candidate); i++) candidate = `${name.slice(0, 27)} (${i})`;
  return candidate;
}
