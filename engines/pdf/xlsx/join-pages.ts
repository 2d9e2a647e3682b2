/**
 * A table that goes on over the next page: the last table of a page and the first of the next are
 * one table when their columns match (count and positions); a header repeated on the new page is
 * dropped. A page's carried row (page-tables.ts) joins the previous page's last table the same
 * way, and is no table of its own when it does not.
 */
import type { PageTables } from "./page-tables.ts";
import { rowTexts, type Table } from "./table-model.ts";

/** A table and the pages it covers. */
export interface JoinedTable extends Table {
  readonly lastPage: number;
}

/** Ruled column boundaries may differ this much (points). */
const RULED_TOLERANCE = 3;

/**
 * The pages' tables, in order, joined; `carried` gets the pages whose carried row joined the table
 * before it (their text is then the text without that row).
 */
export function joinPageTables(pages: readonly PageTables[], carried: Set<number>): JoinedTable[] {
  const out: JoinedTable[] = [];
  for (const page of pages) {
    let firstOnPage = true;
    if (page.carriedRow !== undefined && joinTable(out, page.carriedRow.table)) {
      carried.add(page.page);
      firstOnPage = false;
    }
    for (const table of page.tables) {
      if (!firstOnPage || !joinTable(out, table)) out.push({ ...table, lastPage: table.page });
      firstOnPage = false;
    }
  }
  return out;
}

/** Joins `table`, the first of its page, to the last of `out` when it goes on from it; whether it did. */
function joinTable(out: JoinedTable[], table: Table): boolean {
  const previous = out.at(-1);
  if (previous === undefined || previous.lastPage !== table.page - 1 || !sameColumns(previous, table))
    return false;
  const header = previous.rows.slice(0, previous.headerRows).map((row) => rowTexts(row).join("\u0000"));
  const repeated =
    table.headerRows === previous.headerRows &&
    table.rows.slice(0, table.headerRows).every((row, r) => rowTexts(row).join("\u0000") === header[r]);
  if (!repeated && table.headerRows !== 0) return false;
  const rows = table.rows.slice(repeated ? table.headerRows : 0);
  out[out.length - 1] = { ...previous, rows: [...previous.rows, ...rows], lastPage: table.page };
  return true;
}

function sameColumns(a: Table, b: Table): boolean {
  if (a.ruled !== b.ruled || a.columns.length !== b.columns.length) return false;
  if (a.ruled)
    return a.columns.every(
      (x, i) => Math.abs(x - (b.columns[i] ?? Number.POSITIVE_INFINITY)) <= RULED_TOLERANCE,
    );
  // Borderless boundaries lie mid-gap and move with the widest text: each column must overlap its
  // counterpart by most of the narrower one.
  for (let i = 0; i + 1 < a.columns.length; i++) {
    const [a0 = 0, a1 = 0, b0 = 0, b1 = 0] = [a.columns[i], a.columns[i + 1], b.columns[i], b.columns[i + 1]];
    if (Math.min(a1, b1) - Math.max(a0, b0) < 0.5 * Math.min(a1 - a0, b1 - b0)) return false;
  }
  return true;
}
