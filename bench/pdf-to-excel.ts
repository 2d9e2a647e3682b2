/**
 * PDF to Excel benchmark. (1) Known tables: PDFs drawn in code from tables whose every cell is
 * known (ruled, borderless, merged headers, a statement over three pages, several fonts and
 * alignments, decimal commas, prose around tables; tests/support/table-pdfs.ts). Each expected
 * table is matched to the sheet that recovers most of it and scored: cell accuracy (grid positions
 * equal to the truth, over the larger of the two grids, so missing and extra cells both count)
 * and the share of numeric cells that came out as numbers of the right value. Side by side, in the
 * same run, the usual poor man's extraction: `pdftotext -layout` with cells split at runs of two
 * or more spaces (text only). Goals (issue 7): cell accuracy ≥ 99 %, numbers typed 100 %.
 * (2) The corpus (../shared/corpus/pdf, first MAX_PAGES pages of each file that opens): tables
 * found, cells typed, time per page (no ground truth there).
 * Run: `npm run bench:pdf-to-excel` (installs poppler-utils with apt when pdftotext is missing).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ExcelJS from "exceljs";
import * as mupdf from "mupdf";
import { pdfToExcel } from "../engines/pdf/xlsx/pdf-to-xlsx.ts";
import {
  amount,
  type CellSpec,
  day,
  expectedGrid,
  type PageSpec,
  span,
  type TableSpec,
  tablesPdf,
} from "../tests/support/table-pdfs.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const MAX_PAGES = 20;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));

type Column = TableSpec["columns"][number];
const col = (width: number, align: Column["align"] = "left"): Column => ({ width, align });

const statementHeader = ["Date", "Description", "Reference", "Debit", "Credit", "Balance"];
function statementRows(from: number, count: number): CellSpec[][] {
  const rows: CellSpec[][] = [];
  let balance = 5000 - from * 37.5;
  for (let i = from; i < from + count; i++) {
    const dayOfMonth = (i % 28) + 1;
    const iso = `2024-05-${String(dayOfMonth).padStart(2, "0")}`;
    const debit = i % 3 !== 0;
    const value = Math.round(((i * 7919) % 250000) + 125) / 100;
    balance += debit ? -value : value;
    const text = value.toLocaleString("en-US", { minimumFractionDigits: 2 });
    const description =
      i % 4 === 0 ? "Card payment\nSupermarket Ltd, Leeds" : i % 4 === 1 ? "Direct debit" : "Transfer";
    rows.push([
      day(`${String(dayOfMonth).padStart(2, "0")}/05/2024`, iso),
      { text: description },
      { text: `RF${100200 + i}` },
      debit ? amount(text, value) : { text: "" },
      debit ? { text: "" } : amount(text, value),
      balance < 0
        ? amount(
            `(${Math.abs(balance).toLocaleString("en-US", { minimumFractionDigits: 2 })})`,
            Math.round(balance * 100) / 100,
          )
        : amount(
            balance.toLocaleString("en-US", { minimumFractionDigits: 2 }),
            Math.round(balance * 100) / 100,
          ),
    ]);
  }
  return rows;
}
const statementTable = (from: number, count: number): TableSpec => ({
  ruled: false,
  columns: [col(62), col(140), col(70), col(65, "right"), col(65, "right"), col(75, "right")],
  rows: [statementHeader, ...statementRows(from, count)],
});

/** Documents: their pages, and the tables a perfect result holds (a table over pages is one). */
interface Case {
  readonly name: string;
  readonly pages: PageSpec[];
  readonly expected: CellSpec[][][];
}

function cases(): Case[] {
  const invoice: TableSpec = {
    ruled: true,
    columns: [col(40, "right"), col(200), col(45, "right"), col(80, "right"), col(90, "right")],
    rows: [
      ["#", "Description", "Qty", "Unit price", "Total"],
      ...Array.from({ length: 12 }, (_, i): CellSpec[] => {
        const qty = (i % 5) + 1;
        const unit = Math.round((i * 1731) % 90000) / 100 + 10;
        const total = Math.round(qty * unit * 100) / 100;
        const money = (v: number) => v.toLocaleString("en-US", { minimumFractionDigits: 2 });
        return [
          amount(String(i + 1), i + 1),
          { text: i % 3 === 0 ? `Consulting services,\nphase ${i + 1}` : `Licence pack ${i + 1}` },
          amount(String(qty), qty),
          amount(`$${money(unit)}`, unit),
          amount(`$${money(total)}`, total),
        ];
      }),
    ],
  };
  const quarters: TableSpec = {
    ruled: true,
    font: "Times-Roman",
    columns: [col(110), col(60, "right"), col(60, "right"), col(60, "right"), col(60, "right")],
    rows: [
      ["Region", span("2023", 2), span("2024", 2)],
      ["", "H1", "H2", "H1", "H2"],
      ...["North", "South", "East", "West", "Central"].map((region, i): CellSpec[] => [
        { text: region },
        ...[0, 1, 2, 3].map((k) => {
          const v = 900 + ((i * 331 + k * 127) % 800);
          return amount(v.toLocaleString("en-US"), v);
        }),
      ]),
    ],
  };
  const grouped: TableSpec = {
    ruled: false,
    columns: [col(70), col(150), col(70, "right"), col(70, "right")],
    rows: [
      ["Date", "Description", span("Amount", 2)],
      ["", "", "Debit", "Credit"],
      ...Array.from({ length: 8 }, (_, i): CellSpec[] => {
        const v = Math.round(((i * 4409) % 60000) + 99) / 100;
        const text = v.toFixed(2);
        return [
          day(`2024-06-${String(i + 3).padStart(2, "0")}`, `2024-06-${String(i + 3).padStart(2, "0")}`),
          { text: ["Groceries", "Fuel", "Refund", "Pharmacy"][i % 4] ?? "" },
          i % 4 === 2 ? { text: "" } : amount(text, v),
          i % 4 === 2 ? amount(text, v) : { text: "" },
        ];
      }),
    ],
  };
  const euro: TableSpec = {
    ruled: false,
    font: "Times-Roman",
    size: 10,
    columns: [col(80), col(170), col(100, "right")],
    rows: [
      ["Datum", "Buchungstext", "Betrag"],
      ...Array.from({ length: 10 }, (_, i): CellSpec[] => {
        const v = (i % 2 === 0 ? 1 : -1) * (Math.round(((i * 9973) % 400000) + 50) / 100);
        const text = `${v.toLocaleString("de-DE", { minimumFractionDigits: 2 })} €`;
        const d = String(i * 2 + 10).padStart(2, "0");
        return [
          day(`${d}.04.2024`, `2024-04-${d}`),
          { text: ["Miete", "Gehalt", "Strom", "Versicherung"][i % 4] ?? "" },
          amount(text, v),
        ];
      }),
    ],
  };
  const mono: TableSpec = {
    ruled: false,
    font: "Courier",
    size: 9,
    columns: [col(90), col(160), col(80, "right"), col(60, "right")],
    rows: [
      ["ACCOUNT", "NAME", "AMOUNT", "RATE"],
      ...Array.from({ length: 10 }, (_, i): CellSpec[] => {
        const v = Math.round(((i * 6007) % 900000) + 1000) / 100;
        const rate = ((i % 7) + 1) * 0.25;
        return [
          { text: `00${4410 + i * 3}` },
          { text: ["ACME CORP", "GLOBEX", "INITECH", "UMBRELLA", "HOOLI"][i % 5] ?? "" },
          amount(i % 4 === 3 ? `${v.toFixed(2)}-` : v.toFixed(2), i % 4 === 3 ? -v : v),
          amount(`${rate.toFixed(2)}%`, rate / 100),
        ];
      }),
    ],
  };
  const centred: TableSpec = {
    ruled: true,
    columns: [col(120, "center"), col(120, "center"), col(120, "center")],
    rows: [
      ["Team", "Lead", "Members"],
      ["Platform", "A. Rossi", amount("12", 12)],
      ["Payments", "B. Okafor", amount("7", 7)],
      ["Search", "C. Nguyen", amount("9", 9)],
    ],
  };
  const statementPages = [statementTable(0, 30), statementTable(30, 30), statementTable(60, 18)];
  const statementExpected = statementPages.flatMap((table, i) => expectedGrid(table).slice(i === 0 ? 0 : 1));
  return [
    {
      name: "ruled invoice",
      pages: [{ before: ["INVOICE 2024-117", "Bill to: Example Ltd"], tables: [invoice] }],
      expected: [expectedGrid(invoice)],
    },
    { name: "ruled merged header", pages: [{ tables: [quarters] }], expected: [expectedGrid(quarters)] },
    { name: "borderless grouped header", pages: [{ tables: [grouped] }], expected: [expectedGrid(grouped)] },
    {
      name: "statement, 3 pages",
      pages: statementPages.map((table, i) => ({
        ...(i === 0 ? { before: ["Account statement May 2024"] } : {}),
        tables: [table],
      })),
      expected: [statementExpected],
    },
    { name: "decimal commas (Times)", pages: [{ tables: [euro] }], expected: [expectedGrid(euro)] },
    { name: "monospaced report", pages: [{ tables: [mono] }], expected: [expectedGrid(mono)] },
    {
      name: "prose and two tables",
      pages: [
        {
          before: [
            "The teams below report monthly. Their leads are listed with the size of each team,",
            "and the cost centres follow in a second table.",
          ],
          tables: [centred, { ...invoice, rows: invoice.rows.slice(0, 5) }],
          after: ["Figures are unaudited."],
        },
      ],
      expected: [expectedGrid(centred), expectedGrid({ ...invoice, rows: invoice.rows.slice(0, 5) })],
    },
  ];
}

type Got = string | number | { date: string };

/** A sheet as a grid of values ("" under the covered part of a merged cell). */
function sheetGrid(sheet: ExcelJS.Worksheet): Got[][] {
  const grid: Got[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, r) => {
    const cells: Got[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      const covered = cell.isMerged && cell.master.address !== cell.address;
      const value = cell.value;
      cells[c - 1] = covered
        ? ""
        : value instanceof Date
          ? { date: value.toISOString().slice(0, 10) }
          : typeof value === "number"
            ? value
            : String(value ?? "");
    });
    grid[r - 1] = Array.from({ length: cells.length }, (_, i) => cells[i] ?? "");
  });
  return grid;
}

const norm = (text: string) => text.replace(/\s+/g, " ").trim();

function sameCell(got: Got | undefined, want: CellSpec): boolean {
  const value = want.value;
  if (value === undefined) return typeof got === "string" && norm(got) === norm(want.text);
  if (typeof value === "number") {
    if (typeof got === "number") return Math.abs(got - value) < 1e-9;
    return typeof got === "string" && norm(got) === norm(want.text);
  }
  if (typeof got === "object") return got.date === value.date;
  return typeof got === "string" && norm(got) === norm(want.text);
}

interface Score {
  correct: number;
  total: number;
  numeric: number;
  typed: number;
}

/** Scores the best-matching grid of `grids` against each expected table. */
function score(expected: CellSpec[][][], grids: Got[][][]): Score {
  const result: Score = { correct: 0, total: 0, numeric: 0, typed: 0 };
  for (const want of expected) {
    let best: Score = { correct: 0, total: want.flat().length, numeric: 0, typed: 0 };
    // Each grid is tried at every row offset where the table's first cell appears (text above a
    // table shifts the rows of a page-wide grid).
    const first = norm(want[0]?.[0]?.text ?? "");
    const shifted = grids.flatMap((grid) =>
      grid.flatMap((row, offset) =>
        offset === 0 || (typeof row[0] === "string" && norm(row[0]) === first) ? [grid.slice(offset)] : [],
      ),
    );
    for (const grid of shifted) {
      const s: Score = { correct: 0, total: 0, numeric: 0, typed: 0 };
      const rows = Math.max(want.length, grid.length);
      for (let r = 0; r < rows; r++) {
        const cols = Math.max(want[r]?.length ?? 0, grid[r]?.length ?? 0);
        for (let c = 0; c < cols; c++) {
          s.total++;
          const cell = want[r]?.[c];
          const got = grid[r]?.[c];
          if (cell === undefined) {
            if (got === "" || got === undefined) s.correct++;
            continue;
          }
          if (sameCell(got, cell)) s.correct++;
          if (typeof cell.value === "number") {
            s.numeric++;
            if (typeof got === "number" && Math.abs(got - cell.value) < 1e-9) s.typed++;
          }
        }
      }
      if (s.correct / s.total > best.correct / best.total) best = s;
    }
    if (best.numeric === 0)
      best.numeric = want.flat().filter((cell) => typeof cell.value === "number").length;
    result.correct += best.correct;
    result.total += best.total;
    result.numeric += best.numeric;
    result.typed += best.typed;
  }
  return result;
}

async function ours(
  bytes: Uint8Array,
): Promise<{ grids: Got[][][]; seconds: number; facts: Record<string, unknown> }> {
  const start = performance.now();
  const output = await pdfToExcel(
    [{ name: "bench.pdf", kind: "pdf", bytes }],
    { text_sheet: false },
    () => {},
  );
  const seconds = (performance.now() - start) / 1000;
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(output.bytes as unknown as ArrayBuffer);
  return { grids: workbook.worksheets.map(sheetGrid), seconds, facts: output.facts };
}

/** pdftotext -layout, each line split at 2+ spaces: one grid per page. */
function layoutText(bytes: Uint8Array, dir: string): { grids: Got[][][]; seconds: number } {
  const file = join(dir, "in.pdf");
  writeFileSync(file, bytes);
  const start = performance.now();
  const run = spawnSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = (performance.now() - start) / 1000;
  const pages = run.stdout.split("\f").map((page) =>
    page
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => line.trim().split(/\s{2,}/)),
  );
  // A table over pages is one grid in a spreadsheet too: the pages' lines as one sheet.
  return { grids: [...pages, pages.flat()], seconds };
}

function ensurePdftotext() {
  if (spawnSync("pdftotext", ["-v"]).error === undefined) return;
  console.log("pdftotext missing: installing poppler-utils with apt-get.");
  spawnSync("apt-get", ["install", "-y", "poppler-utils"], { stdio: "inherit" });
}

const pct = (a: number, b: number) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)} %`);

async function knownTables() {
  const dir = mkdtempSync(join(tmpdir(), "bench-xlsx-"));
  const rows: string[][] = [];
  const totals = {
    ours: { correct: 0, total: 0, numeric: 0, typed: 0 },
    ref: { correct: 0, total: 0 },
    pages: 0,
    seconds: 0,
  };
  try {
    for (const c of cases()) {
      const bytes = tablesPdf(c.pages);
      const mine = await ours(bytes);
      const ref = layoutText(bytes, dir);
      const s = score(c.expected, mine.grids);
      const r = score(c.expected, ref.grids);
      totals.ours.correct += s.correct;
      totals.ours.total += s.total;
      totals.ours.numeric += s.numeric;
      totals.ours.typed += s.typed;
      totals.ref.correct += r.correct;
      totals.ref.total += r.total;
      totals.pages += c.pages.length;
      totals.seconds += mine.seconds;
      rows.push([
        c.name,
        String(c.pages.length),
        pct(s.correct, s.total),
        pct(r.correct, r.total),
        pct(s.typed, s.numeric),
        `${((1000 * mine.seconds) / c.pages.length).toFixed(0)} ms`,
      ]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push([
    "all",
    String(totals.pages),
    pct(totals.ours.correct, totals.ours.total),
    pct(totals.ref.correct, totals.ref.total),
    pct(totals.ours.typed, totals.ours.numeric),
    `${((1000 * totals.seconds) / totals.pages).toFixed(0)} ms`,
  ]);
  table(
    "Known tables (goal: cells ≥ 99 %, numbers typed 100 %)",
    [
      "document",
      "pages",
      "cells right (ours)",
      "cells right (pdftotext -layout)",
      "numbers typed (ours)",
      "time/page (ours)",
    ],
    rows,
  );
}

async function corpusFiles() {
  if (!existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: skipped.`);
    return;
  }
  const rows: string[][] = [];
  for (const name of readdirSync(corpus)
    .filter((file) => file.endsWith(".pdf"))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(join(corpus, name)));
    let pages = 0;
    try {
      const doc = mupdf.Document.openDocument(bytes, "application/pdf");
      pages = doc.needsPassword() ? 0 : doc.countPages();
      doc.destroy();
    } catch {
      pages = 0;
    }
    if (pages === 0) continue;
    const used = Math.min(pages, MAX_PAGES);
    const start = performance.now();
    try {
      const output = await pdfToExcel(
        [{ name, kind: "pdf", bytes }],
        { text_sheet: false, page_ranges: `1-${used}` },
        () => {},
      );
      const seconds = (performance.now() - start) / 1000;
      const f = output.facts;
      rows.push([
        name,
        String(used),
        String(f.tables),
        String(f.numbers),
        String(f.dates),
        `${((1000 * seconds) / used).toFixed(0)} ms`,
      ]);
    } catch (error) {
      rows.push([name, String(used), "—", "—", "—", (error as { code?: string }).code ?? "error"]);
    }
  }
  table(
    "Corpus (first pages of each file; no ground truth)",
    ["file", "pages", "tables", "numbers", "dates", "time/page"],
    rows,
  );
}

function table(title: string, head: string[], rows: string[][]) {
  console.log(`\n${title}\n`);
  console.log(`| ${head.join(" | ")} |`);
  console.log(`|${head.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

ensurePdftotext();
await knownTables();
await corpusFiles();
