/**
 * A table that goes on over the next page: the last table of a page and the first of the next are
 * one table when their columns match (count and positions); a header repeated on the new page is
 * dropped.
 */
import { rowTexts, type Table } from "./table-model.ts";

/** A table and the pages it covers. */
export interface JoinedTable extends Table {
  readonly lastPage: number;
}

/** Column boundaries may differ this much (points): borderless columns follow their content. */
const RULED_TOLERANCE = 3;
const BORDERLESS_TOLERANCE = 15;

export function joinContinuedTables(tables: readonly Table[]): JoinedTable[] {
  const out: JoinedTable[] = [];
  tables.forEach((table, i) => {
    const previous = out.at(-1);
    const before = tables[i - 1];
    const firstOnPage = before === undefined || before.page !== table.page;
    if (
      previous !== undefined &&
      firstOnPage &&
      previous.lastPage === table.page - 1 &&
      sameColumns(previous, table)
    ) {
      const header = previous.rows.slice(0, previous.headerRows).map((row) => rowTexts(row).join("\u0000"));
      const repeated =
        table.headerRows === previous.headerRows &&
        table.rows.slice(0, table.headerRows).every((row, r) => rowTexts(row).join("\u0000") === header[r]);
      if (repeated || table.headerRows === 0) {
        const rows = table.rows.slice(repeated ? table.headerRows : 0);
        out[out.length - 1] = { ...previous, rows: [...previous.rows, ...rows], lastPage: table.page };
        return;
      }
    }
    out.push({ ...table, lastPage: table.page });
  });
  return out;
}

function sameColumns(a: Table, b: Table): boolean {
  if (a.ruled !== b.ruled || a.columns.length !== b.columns.length) return false;
  const tolerance = a.ruled ? RULED_TOLERANCE : BORDERLESS_TOLERANCE;
  // Outer edges of borderless tables follow the widest text; the inner boundaries must agree.
  const inner = (columns: readonly number[]) => (a.ruled ? columns : columns.slice(1, -1));
  const left = inner(a.columns);
  const right = inner(b.columns);
  return left.every((x, i) => Math.abs(x - (right[i] ?? Number.POSITIVE_INFINITY)) <= tolerance);
}
