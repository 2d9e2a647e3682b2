/**
 * PDFs drawn from known tables with MuPDF (text and vector rules through a DocumentWriter), for the
 * PDF to Excel tests and benchmark: every cell's text, and the typed value a cell must become, is
 * known, so a recovered sheet can be scored cell by cell.
 */
import * as mupdf from "mupdf";

/** A cell's expected typed value: a number, or a date as "yyyy-mm-dd". */
export type CellValue = number | { readonly date: string };

export interface CellSpec {
  /** Drawn text; "\n" wraps it onto several lines inside the cell. */
  readonly text: string;
  /** Columns the cell covers (a merged header); default 1. */
  readonly span?: number;
  /** The typed value the sheet must hold; absent for text. */
  readonly value?: CellValue;
}

export type Align = "left" | "right" | "center";

export interface TableSpec {
  readonly columns: readonly { readonly width: number; readonly align: Align }[];
  /** Rows of cells; a cell with `span` n is followed by the next column's cell n columns later. */
  readonly rows: readonly (readonly (CellSpec | string)[])[];
  /** Vector lines around every cell (ruled) or none (borderless). */
  readonly ruled: boolean;
  readonly font?: "Helvetica" | "Times-Roman" | "Courier";
  readonly size?: number;
}

export interface PageSpec {
  /** Lines of prose above the tables. */
  readonly before?: readonly string[];
  readonly tables: readonly TableSpec[];
  readonly after?: readonly string[];
}

/** Number and date cells. */
export const amount = (text: string, value: number): CellSpec => ({ text, value });
export const day = (text: string, iso: string): CellSpec => ({ text, value: { date: iso } });
export const span = (text: string, columns: number): CellSpec => ({ text, span: columns });

const PAGE: mupdf.Rect = [0, 0, 595, 842];
const MARGIN = 50;
const PADDING = 4;
const STROKE = new mupdf.StrokeState({ lineCap: "Butt", lineJoin: "Miter", lineWidth: 0.6, miterLimit: 10 });

export function cellOf(cell: CellSpec | string): CellSpec {
  return typeof cell === "string" ? { text: cell } : cell;
}

/** The expected sheet of a table: one entry per grid cell, "" under a merged cell's covered columns. */
export function expectedGrid(table: TableSpec): CellSpec[][] {
  return table.rows.map((row) => {
    const cells: CellSpec[] = [];
    for (const raw of row) {
      const cell = cellOf(raw);
      cells.push({ ...cell, text: cell.text.replace(/\s*\n\s*/g, " ") });
      for (let i = 1; i < (cell.span ?? 1); i++) cells.push({ text: "" });
    }
    return cells;
  });
}

function textWidth(font: mupdf.Font, size: number, text: string): number {
  let width = 0;
  for (const char of text) width += font.advanceGlyph(font.encodeCharacter(char)) * size;
  return width;
}

/** Draws `pages` onto A4 pages and returns the PDF. */
export function tablesPdf(pages: readonly PageSpec[]): Uint8Array {
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, "pdf", "");
  const fonts = new Map<string, mupdf.Font>();
  const fontOf = (name: string) => {
    const known = fonts.get(name);
    if (known !== undefined) return known;
    const font = new mupdf.Font(name);
    fonts.set(name, font);
    return font;
  };
  for (const spec of pages) {
    const device = writer.beginPage(PAGE);
    const text = new mupdf.Text();
    const rules = new mupdf.Path();
    const body = fontOf("Times-Roman");
    let y = MARGIN;
    const prose = (lines: readonly string[] | undefined) => {
      for (const line of lines ?? []) {
        y += 14;
        text.showString(body, [11, 0, 0, -11, MARGIN, y], line);
      }
      y += lines?.length ? 12 : 0;
    };
    prose(spec.before);
    for (const table of spec.tables) {
      y = drawTable(table, y, fontOf(table.font ?? "Helvetica"), text, rules) + 24;
    }
    prose(spec.after);
    device.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1);
    device.strokePath(rules, STROKE, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1);
    writer.endPage();
  }
  writer.close();
  return buffer.asUint8Array();
}

/** Draws one table with its top at `top`; returns its bottom. */
function drawTable(table: TableSpec, top: number, font: mupdf.Font, text: mupdf.Text, rules: mupdf.Path) {
  const size = table.size ?? 9;
  const leading = size * 1.25;
  const lefts: number[] = [];
  let x = MARGIN;
  for (const column of table.columns) {
    lefts.push(x);
    x += column.width;
  }
  const right = x;
  let y = top;
  const rowTops: number[] = [];
  for (const row of table.rows) {
    rowTops.push(y);
    const lines = Math.max(...row.map((cell) => cellOf(cell).text.split("\n").length));
    let column = 0;
    for (const raw of row) {
      const cell = cellOf(raw);
      const spanned = cell.span ?? 1;
      const left = lefts[column] ?? MARGIN;
      const width = table.columns.slice(column, column + spanned).reduce((sum, c) => sum + c.width, 0);
      const align = spanned > 1 ? "center" : (table.columns[column]?.align ?? "left");
      cell.text.split("\n").forEach((line, i) => {
        const lineWidth = textWidth(font, size, line);
        const start =
          align === "left"
            ? left + PADDING
            : align === "right"
              ? left + width - PADDING - lineWidth
              : left + (width - lineWidth) / 2;
        text.showString(font, [size, 0, 0, -size, start, y + PADDING + size + i * leading], line);
      });
      if (table.ruled) {
        rules.moveTo(left, y);
        rules.lineTo(left, y + lines * leading + 2 * PADDING);
      }
      column += spanned;
    }
    y += lines * leading + 2 * PADDING;
    if (table.ruled) {
      rules.moveTo(right, rowTops.at(-1) ?? y);
      rules.lineTo(right, y);
    }
  }
  if (table.ruled) {
    for (const rowTop of [...rowTops, y]) {
      rules.moveTo(MARGIN, rowTop);
      rules.lineTo(right, rowTop);
    }
  }
  return y;
}
