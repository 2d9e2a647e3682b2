import { existsSync } from "node:fs";
import ExcelJS from "exceljs";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { type PdfToExcelOptions, pdfToExcel } from "../../engines/pdf/xlsx/pdf-to-xlsx.ts";
import { COMMENT, FIELD_VALUE, formOnlyPdf } from "../support/form-only-pdf.ts";
import { amount, day, type PageSpec, span, type TableSpec, tablesPdf } from "../support/table-pdfs.ts";
import { bytesOf, corpus, corpusFiles } from "./corpus-files.ts";
import { engineFailure } from "./engine-failure.ts";
import { encryptedPdf, irreparablePdf, pdfInput, save } from "./fixtures.ts";
import { columnRuledTablesPdf, drawnPdf, type GlyphText, hiddenTextPdfs } from "./rich-pdf.ts";

async function convert(bytes: Uint8Array, options: Partial<PdfToExcelOptions> = {}) {
  const progress: number[] = [];
  const output = await pdfToExcel(
    [pdfInput("statement.pdf", bytes)],
    { text_sheet: false, ...options },
    (p) => progress.push(p),
  );
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(output.bytes as unknown as ArrayBuffer);
  return { ...output, workbook, progress };
}

/** The values of a sheet, row by row (exceljs rows are 1-based with an empty slot 0). */
function values(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, r) => {
    rows[r - 1] = (row.values as unknown[]).slice(1).map((value) => value ?? "");
  });
  return rows;
}

function sheet(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const found = workbook.getWorksheet(name);
  if (found === undefined) throw new Error(`no sheet ${name}: ${workbook.worksheets.map((s) => s.name)}`);
  return found;
}

const merges = (ws: ExcelJS.Worksheet) => [...(ws.model.merges ?? [])].sort();

const invoice: TableSpec = {
  ruled: true,
  columns: [
    { width: 160, align: "left" },
    { width: 50, align: "right" },
    { width: 80, align: "right" },
    { width: 90, align: "right" },
  ],
  rows: [
    ["Item", "Qty", "Unit price", "Amount"],
    ["Steel widget,\nlarge model", amount("2", 2), amount("617.28", 617.28), amount("1,234.56", 1234.56)],
    ["Discount", amount("1", 1), amount("(45.00)", -45), amount("(45.00)", -45)],
    ["Shipping", amount("1", 1), amount("$12.50", 12.5), amount("$12.50", 12.5)],
  ],
};

const statementColumns = [
  { width: 70, align: "left" },
  { width: 170, align: "left" },
  { width: 70, align: "right" },
  { width: 70, align: "right" },
  { width: 80, align: "right" },
] as const;
const statementHeader = ["Date", "Description", "Debit", "Credit", "Balance"];
const statement = (rows: TableSpec["rows"]): TableSpec => ({
  ruled: false,
  columns: statementColumns,
  rows: [statementHeader, ...rows],
});

describe("PDF to Excel", () => {
  it("reads a ruled table: joined multi-line cells, typed numbers with their formats, a frozen bold header", async () => {
    const { workbook, facts, name, progress } = await convert(tablesPdf([{ tables: [invoice] }]));
    expect(name).toBe("statement.xlsx");
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Page 1"]);
    const ws = sheet(workbook, "Page 1");
    expect(values(ws)).toEqual([
      ["Item", "Qty", "Unit price", "Amount"],
      ["Steel widget, large model", 2, 617.28, 1234.56],
      ["Discount", 1, -45, -45],
      ["Shipping", 1, 12.5, 12.5],
    ]);
    expect(ws.getCell("D2").numFmt).toBe("#,##0.00");
    expect(ws.getCell("C3").numFmt).toBe("0.00;(0.00)");
    expect(ws.getCell("D4").numFmt).toBe('"$"0.00');
    expect(ws.getCell("A1").font?.bold).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    // The description column is fitted wider than the quantity column.
    expect(ws.getColumn(1).width ?? 0).toBeGreaterThan((ws.getColumn(2).width ?? 0) + 10);
    expect(facts).toMatchObject({
      pages: 1,
      pages_converted: 1,
      tables: 1,
      sheets: 1,
      numbers: 9,
      dates: 0,
    });
    expect(progress.at(-1)).toBe(100);
  });

  it("merges the header cells of a ruled table where its lines say so", async () => {
    const table: TableSpec = {
      ruled: true,
      columns: [
        { width: 100, align: "left" },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
        { width: 60, align: "right" },
      ],
      rows: [
        ["Region", span("2023", 2), span("2024", 2)],
        ["", "H1", "H2", "H1", "H2"],
        ["North", amount("1,200", 1200), amount("1,350", 1350), amount("1,410", 1410), amount("1,505", 1505)],
        ["South", amount("980", 980), amount("1,020", 1020), amount("1,100", 1100), amount("1,180", 1180)],
      ],
    };
    const { workbook } = await convert(tablesPdf([{ tables: [table] }]));
    const ws = sheet(workbook, "Page 1");
    expect(merges(ws)).toEqual(["B1:C1", "D1:E1"]);
    expect(ws.getCell("B1").value).toBe("2023");
    expect(ws.getCell("D1").value).toBe("2024");
    expect(values(ws)[2]).toEqual(["North", 1200, 1350, 1410, 1505]);
    expect(ws.getCell("B3").numFmt).toBe("#,##0");
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 2 });
  });

  it("finds a borderless bank statement over two pages as one sheet, with dates, negatives and multi-line descriptions", async () => {
    const pages: PageSpec[] = [
      {
        before: ["Account statement", "Period 1 January to 31 January 2024"],
        tables: [
          statement([
            [day("02/01/2024", "2024-01-02"), "Opening balance", "", "", amount("1,000.00", 1000)],
            [
              day("15/01/2024", "2024-01-15"),
              "Card payment\nCoffee shop, London",
              amount("3.50", 3.5),
              "",
              amount("996.50", 996.5),
            ],
            [
              day("16/01/2024", "2024-01-16"),
              "Salary January",
              "",
              amount("2,500.00", 2500),
              amount("3,496.50", 3496.5),
            ],
          ]),
        ],
      },
      {
        tables: [
          statement([
            [
              day("20/01/2024", "2024-01-20"),
              "Rent",
              amount("1,200.00", 1200),
              "",
              amount("2,296.50", 2296.5),
            ],
            [
              day("31/01/2024", "2024-01-31"),
              "Fee correction",
              amount("12.00-", -12),
              "",
              amount("(2,308.50)", -2308.5),
            ],
          ]),
        ],
      },
    ];
    const { workbook, facts } = await convert(tablesPdf(pages));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Pages 1-2"]);
    const ws = sheet(workbook, "Pages 1-2");
    const rows = values(ws);
    expect(rows[0]).toEqual(statementHeader);
    expect(rows.map((row) => row[1])).toEqual([
      "Description",
      "Opening balance",
      "Card payment Coffee shop, London",
      "Salary January",
      "Rent",
      "Fee correction",
    ]);
    expect(rows[1]?.[0]).toEqual(new Date(Date.UTC(2024, 0, 2)));
    expect(ws.getCell("A2").numFmt).toBe("dd/mm/yyyy");
    expect(rows.map((row) => row[4]).slice(1)).toEqual([1000, 996.5, 3496.5, 2296.5, -2308.5]);
    expect(ws.getCell("C6").value).toBe(-12);
    expect(ws.getCell("C6").numFmt).toBe("0.00;0.00-");
    expect(ws.getCell("E6").numFmt).toBe("#,##0.00;(#,##0.00)");
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(facts).toMatchObject({ tables: 1, dates: 5 });
  });

  it("joins a ruled table's last row, carried over to the next page alone, to its table", async () => {
    // A browser breaks a table between any two rows: one row of a ruled grid at the top of page 2
    // was no table (one row), and its cells were lost.
    const carried: TableSpec = {
      ...invoice,
      rows: [["Insurance", amount("1", 1), amount("8.00", 8), amount("8.00", 8)]],
    };
    const frame: TableSpec = {
      ...invoice,
      columns: [
        { width: 300, align: "left" },
        { width: 80, align: "left" },
      ],
      rows: [["Signed", "Date"]],
    };
    const { workbook } = await convert(
      tablesPdf([
        { tables: [invoice] },
        { tables: [carried], after: ["Thank you for your order."] },
        { tables: [frame] },
      ]),
      { text_sheet: true },
    );
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Pages 1-2", "Text"]);
    const rows = values(sheet(workbook, "Pages 1-2"));
    expect(rows.map((row) => row[0])).toEqual([
      "Item",
      "Steel widget, large model",
      "Discount",
      "Shipping",
      "Insurance",
    ]);
    expect(rows[4]).toEqual(["Insurance", 1, 8, 8]);
    // The carried row is not text of page 2; a lone ruled row that continues nothing stays text.
    expect(values(sheet(workbook, "Text"))).toEqual([
      [2, "Thank you for your order."],
      [3, "Signed  Date"],
    ]);
  });

  it("reads a table ruled between columns but not between rows one row per line", async () => {
    // The body's rows are one grid row ("North South" | "1200 980" before).
    const { workbook } = await convert(await columnRuledTablesPdf());
    const [stacked, wrapped] = workbook.worksheets.map(values);
    expect(stacked).toEqual([
      ["Region", "Q1", "Q2"],
      ["North", 1200, 1350],
      ["South", 980, 1010],
      ["East", 1105, 1190],
    ]);
    expect(wrapped).toEqual([
      ["Item", "Qty", "Price"],
      ["Steel widget, large model", 2, 617.28],
    ]);
  });

  it("merges a borderless group header over its columns and the labels beside it down", async () => {
    const table: TableSpec = {
      ruled: false,
      columns: [
        { width: 70, align: "left" },
        { width: 160, align: "left" },
        { width: 70, align: "right" },
        { width: 70, align: "right" },
      ],
      rows: [
        ["Date", "Description", span("Amount", 2)],
        ["", "", "Debit", "Credit"],
        [day("2024-03-01", "2024-03-01"), "Transfer in", "", amount("250.00", 250)],
        [day("2024-03-04", "2024-03-04"), "Groceries", amount("64.20", 64.2), ""],
        [day("2024-03-09", "2024-03-09"), "Pharmacy", amount("18.75", 18.75), ""],
      ],
    };
    const { workbook } = await convert(tablesPdf([{ tables: [table] }]));
    const ws = sheet(workbook, "Page 1");
    expect(merges(ws)).toEqual(["A1:A2", "B1:B2", "C1:D1"]);
    expect(ws.getCell("C1").value).toBe("Amount");
    expect(values(ws)[1]?.slice(2)).toEqual(["Debit", "Credit"]);
    expect(ws.getCell("A3").value).toEqual(new Date(Date.UTC(2024, 2, 1)));
    expect(ws.getCell("A3").numFmt).toBe("yyyy-mm-dd");
    expect(ws.getCell("D3").value).toBe(250);
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 2 });
  });

  it("reads decimal commas and day-first dates where the document shows them unambiguously", async () => {
    const table: TableSpec = {
      ruled: false,
      font: "Times-Roman",
      columns: [
        { width: 80, align: "left" },
        { width: 150, align: "left" },
        { width: 90, align: "right" },
      ],
      rows: [
        ["Datum", "Buchungstext", "Betrag"],
        [day("03.04.2024", "2024-04-03"), "Miete", amount("1.250,00 €", 1250)],
        [day("15.04.2024", "2024-04-15"), "Strom", amount("-84,30 €", -84.3)],
        [day("28.04.2024", "2024-04-28"), "Gehalt", amount("3.100,00 €", 3100)],
        [day("30.04.2024", "2024-04-30"), "Zinsen", amount("1,234", 1.234)],
      ],
    };
    const { workbook } = await convert(tablesPdf([{ tables: [table] }]));
    const ws = sheet(workbook, "Page 1");
    expect(
      values(ws)
        .map((row) => row[2])
        .slice(1),
    ).toEqual([1250, -84.3, 3100, 1.234]);
    expect(ws.getCell("C2").numFmt).toBe('#,##0.00" €"');
    // 03.04 is 3 April: 15.04 and 28.04 show the document puts the day first.
    expect(ws.getCell("A2").value).toEqual(new Date(Date.UTC(2024, 3, 3)));
    expect(ws.getCell("A2").numFmt).toBe("dd.mm.yyyy");
  });

  it("converts only the pages asked for, and can put the text outside tables on its own sheet", async () => {
    const pdf = tablesPdf([
      { before: ["First page"], tables: [invoice] },
      {
        before: ["Second page, a note above the table"],
        tables: [
          statement([
            [day("01/02/2024", "2024-02-01"), "Interest", "", amount("1.10", 1.1), amount("1.10", 1.1)],
            [day("02/02/2024", "2024-02-02"), "Fee", amount("2.00", 2), "", amount("(0.90)", -0.9)],
          ]),
        ],
      },
    ]);
    const { workbook, facts } = await convert(pdf, { page_ranges: "2", text_sheet: true });
    expect(workbook.worksheets.map((s) => s.name)).toEqual(["Page 2", "Text"]);
    expect(values(sheet(workbook, "Text"))).toEqual([[2, "Second page, a note above the table"]]);
    expect(facts).toMatchObject({ pages: 2, pages_converted: 1, tables: 1 });
    const failure = await engineFailure(convert(pdf, { page_ranges: "2-5" }));
    expect(failure.code).toBe("INVALID_OPTIONS");
    expect(failure.context).toMatchObject({ page_ranges_error: "invalidRange", range: "2-5", pages: 2 });
  });

  it("gives the text of the pages when there is no table", async () => {
    const { workbook, facts } = await convert(
      tablesPdf([{ before: ["Dear customer,", "thank you for your order."], tables: [] }]),
    );
    expect(facts.tables).toBe(0);
    expect(values(sheet(workbook, "Text"))).toEqual([
      [1, "Dear customer,"],
      [1, "thank you for your order."],
    ]);
  });

  it("reads Arabic phrases from the right", async () => {
    // Each word its own text object, drawn from the right edge leftwards, as Arabic is set.
    const glyphs: GlyphText = { a: "هذه", b: "فقرة", c: "إضافية" };
    const content = [
      "BT /F6 14 Tf 300 760 Td (a) Tj ET\n",
      "BT /F6 14 Tf 285 760 Td (b) Tj ET\n",
      "BT /F6 14 Tf 270 760 Td (c) Tj ET\n",
    ].join("");
    const { workbook } = await convert(await drawnPdf([{ content }], glyphs), { text_sheet: true });
    expect(values(sheet(workbook, "Text"))).toEqual([[1, "هذه فقرة إضافية"]]);
  });

  it("puts a table of Arabic on a right-to-left sheet, its first column the page's rightmost", async () => {
    // A grid of 3 columns (x 150, 260, 370, 480) and 3 rows, one word a cell, drawn from the right.
    const rules = [
      ...[150, 260, 370, 480].map((x) => `${x} 680 m ${x} 740 l`),
      ...[680, 700, 720, 740].map((y) => `150 ${y} m 480 ${y} l`),
    ];
    const glyphs: GlyphText = {
      a: "الاسم",
      b: "المدينة",
      c: "العدد",
      d: "سارة",
      e: "دبي",
      f: "42",
      g: "علي",
      h: "عمان",
      i: "7",
    };
    const cell = (x: number, y: number, glyph: string) => `BT /F6 11 Tf ${x} ${y} Td (${glyph}) Tj ET\n`;
    const content = [
      `0.5 w ${rules.join(" ")} S\n`,
      ...["abc", "def", "ghi"].flatMap((row, r) =>
        [...row].map((glyph, c) => cell(400 - 110 * c, 725 - 20 * r, glyph)),
      ),
    ].join("");
    const { workbook } = await convert(await drawnPdf([{ content }], glyphs));
    const [table] = workbook.worksheets;
    expect(table === undefined ? [] : values(table)).toEqual([
      ["الاسم", "المدينة", "العدد"],
      ["سارة", "دبي", 42],
      ["علي", "عمان", 7],
    ]);
    expect(table?.views[0]).toMatchObject({ rightToLeft: true });
  });

  it("converts pages whose only text MuPDF's reading missed: an operator in a TJ array, clip-mode text", async () => {
    for (const { text, bytes } of await hiddenTextPdfs()) {
      const { workbook } = await convert(bytes);
      // Glyphs that cannot be drawn have no width: their words may fall into cells of their own.
      const cells = JSON.stringify(workbook.worksheets.map(values));
      for (const word of text.split(" ")) expect(cells).toContain(word);
    }
  });

  it("refuses encrypted, damaged and text-less PDFs with their codes", async () => {
    expect((await engineFailure(convert(encryptedPdf()))).code).toBe("PDF_ENCRYPTED");
    expect((await engineFailure(convert(irreparablePdf()))).code).toBe("PDF_DAMAGED");
    // A page with only a picture-like drawing: no text layer, as a scan.
    const doc = new mupdf.PDFDocument();
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, doc.addObject({}), "0.5 g 50 50 400 600 re f"));
    const scan = await engineFailure(convert(save(doc)));
    expect(scan.code).toBe("PDF_NO_TEXT");
    expect(scan.context).toMatchObject({ file_index: 0 });
  });

  it("keeps the text of a filled form field and a comment, the page's only text", async () => {
    const { workbook } = await convert(formOnlyPdf());
    const text = workbook.worksheets.flatMap((ws) => values(ws).flat()).join(" ");
    expect(text).toContain(FIELD_VALUE);
    expect(text).toContain(COMMENT);
  });

  it("keeps the text of a page written only sideways (rotated lines) on the text sheet", async () => {
    const doc = new mupdf.PDFDocument();
    const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const resources = doc.addObject({ Font: { F1: font } });
    const content =
      "BT /F1 14 Tf 0 1 -1 0 300 100 Tm (Rotated label) Tj ET BT /F1 14 Tf 0 -1 1 0 100 700 Tm (Spine title) Tj ET";
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
    const { workbook } = await convert(save(doc));
    const text = workbook.worksheets.flatMap((ws) => values(ws).flat()).join(" ");
    expect(text).toContain("Rotated label");
    expect(text).toContain("Spine title");
  });
});

describe.skipIf(!existsSync(corpus))("PDF to Excel on the corpus", () => {
  it("makes a workbook exceljs opens from the first pages of every file, or names why not", async () => {
    let tables = 0;
    for (const { file, pages } of corpusFiles()) {
      const bytes = bytesOf(file);
      const output = await pdfToExcel(
        [pdfInput(file, bytes)],
        { text_sheet: true, page_ranges: `1-${Math.max(1, Math.min(pages, 5))}` },
        () => {},
      ).catch((error: unknown) => error);
      if (output instanceof AppError) {
        expect(["PDF_ENCRYPTED", "PDF_DAMAGED", "PDF_NO_TEXT", "PDF_NO_PAGES", "INVALID_OPTIONS"]).toContain(
          output.code,
        );
        continue;
      }
      if (output instanceof Error) throw new Error(`${file}: ${output.message}`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((output as { bytes: Uint8Array }).bytes as unknown as ArrayBuffer);
      const facts = (output as { facts: Record<string, unknown> }).facts;
      expect(workbook.worksheets.length, file).toBe(facts.sheets);
      tables += Number(facts.tables);
    }
    expect(tables).toBeGreaterThan(0);
  }, 240_000);
});
