/**
 * The tables of one page: ruled grids first (their words are theirs), then borderless tables among
 * the remaining words; the words outside every table are kept as the page's other text.
 */
import type * as mupdf from "mupdf";
import { readPageText } from "../structured-text.ts";
import { findBorderlessTables, textRows } from "./borderless-tables.ts";
import { isDataValue } from "./cell-values.ts";
import { crossLineTexts, lineWords } from "./page-words.ts";
import { findRuledTables } from "./ruled-tables.ts";
import { headerRowCount, mergeHeaderDown, type Table } from "./table-model.ts";

export interface PageTables {
  /** 1-based page number. */
  readonly page: number;
  readonly tables: Table[];
  /** Lines of text outside the tables, top to bottom. */
  readonly text: string[];
  /** Whether the page has any text at all (a scan has none). */
  readonly hasText: boolean;
  /**
   * A ruled row of one line above the page's tables, whose words no table took: the last row of the
   * previous page's table when its columns are that table's (join-pages.ts), with the page's text
   * without it. Else its words stay in `text`.
   */
  readonly carriedRow?: { readonly table: Table; readonly text: string[] };
}

export function tablesOfPage(page: mupdf.Page, pageNumber: number): PageTables {
  const content = readPageText(page, pageNumber - 1, { images: false });
  const words = lineWords(content).flat();
  const ruled = findRuledTables(pageNumber, content.rules, words);
  const borderless = findBorderlessTables(pageNumber, ruled.rest, isDataValue);
  const tables = [...ruled.tables, ...borderless.tables]
    .sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0])
    .map((table) => {
      const headerRows = headerRowCount(table.rows, isDataValue);
      const rows = table.ruled ? table.rows : mergeHeaderDown(table.rows, headerRows);
      return { ...table, rows, headerRows };
    });
  const textOf = (rest: typeof borderless.rest) => [
    ...textRows(rest).map((row) => row.phrases.map((phrase) => phrase.text).join("  ")),
    ...crossLineTexts(content),
  ];
  const text = textOf(borderless.rest);
  const found = { page: pageNumber, tables, text, hasText: words.length > 0 || text.length > 0 };
  const left = new Set(borderless.rest);
  const carried = ruled.loneRows[0];
  if (
    carried === undefined ||
    !carried.words.every((word) => left.has(word)) ||
    tables.some((table) => table.box[1] < carried.table.box[1])
  )
    return found;
  const taken = new Set(carried.words);
  return {
    ...found,
    carriedRow: {
      table: { ...carried.table, headerRows: 0 },
      text: textOf(borderless.rest.filter((word) => !taken.has(word))),
    },
  };
}
