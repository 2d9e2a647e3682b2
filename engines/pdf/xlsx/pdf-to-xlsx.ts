/**
 * PDF to Excel (tools/pdf-to-excel): the tables of the chosen pages (spec §5 ranges; each page
 * once, in page order) as a workbook with one worksheet per table. Tables come from vector rules
 * (ruled-tables.ts) and from aligned columns (borderless-tables.ts); a table going on over the next
 * page becomes one sheet; cells become numbers and dates where their text is one.
 */
import { AppError, type JobFacts, pagesOf } from "../../../contract/index.ts";
import { baseName } from "../../file-name.ts";
import type { EngineHandler } from "../../types.ts";
import { openPdf, wasRepaired } from "../open-pdf.ts";
import { selectPageRanges } from "../page-selection.ts";
import { asPdfJobError } from "../write-pdf.ts";
import { conventionsOf } from "./cell-values.ts";
import { joinPageTables } from "./join-pages.ts";
import { type PageTables, tablesOfPage } from "./page-tables.ts";
import { writeWorkbook } from "./write-xlsx.ts";

export interface PdfToExcelOptions {
  readonly page_ranges?: string | undefined;
  /** Also put the text outside the tables on a sheet of its own. */
  readonly text_sheet: boolean;
}

export const pdfToExcel: EngineHandler<PdfToExcelOptions> = async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No PDF to convert.");
  const doc = openPdf(input.bytes, 0);
  try {
    const pageCount = doc.countPages();
    const pages = [...new Set(pagesOf(selectPageRanges(options.page_ranges, pageCount)))].sort(
      (a, b) => a - b,
    );
    const found: PageTables[] = [];
    for (const [i, number] of pages.entries()) {
      const page = doc.loadPage(number - 1);
      try {
        found.push(tablesOfPage(page, number));
      } finally {
        page.destroy();
      }
      progress(((i + 1) / pages.length) * 90);
    }
    const withoutText = found.filter((page) => !page.hasText).length;
    if (withoutText === found.length) {
      throw new AppError("PDF_NO_TEXT", "The selected pages have no text layer (scanned images).", {
        file_index: 0,
        pages: found.length,
      });
    }
    const carried = new Set<number>();
    const tables = joinPageTables(found, carried);
    // With no table at all, the text itself is the result: it goes on the text sheet.
    const text =
      options.text_sheet || tables.length === 0
        ? found.map((p) => ({
            page: p.page,
            lines: carried.has(p.page) ? (p.carriedRow?.text ?? p.text) : p.text,
          }))
        : [];
    const conventions = conventionsOf(
      tables.flatMap((table) => table.rows.flatMap((row) => row.map((cell) => cell?.text ?? ""))),
    );
    const workbook = await writeWorkbook(tables, text, conventions);
    progress(100);
    const facts: JobFacts = {
      pages: pageCount,
      pages_converted: pages.length,
      tables: tables.length,
      sheets: workbook.facts.sheets,
      numbers: workbook.facts.numbers,
      dates: workbook.facts.dates,
      ...(withoutText > 0 ? { pages_without_text: withoutText } : {}),
      ...(wasRepaired(doc) ? { repaired: true } : {}),
    };
    return { bytes: workbook.bytes, facts, name: `${baseName(input.name)}.xlsx` };
  } catch (error) {
    // MuPDF's own errors on a file that opened (a page-tree cycle) are damage, as merge says.
    throw asPdfJobError(error, "conversion to Excel", { file_index: 0 });
  } finally {
    doc.destroy();
  }
};
