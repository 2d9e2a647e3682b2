/**
 * Quality checks of bench/outside-pdfs.ts, added to the sweep's own check of a job's output: each
 * returns a problem or null, and records the figures it prints at the end.
 * - PDF to Excel on the invoice: every line item in one row, its quantity, price and amount in the
 *   columns of their headers.
 * - PDF to Word on the languages page: each sentence pdftotext reads in the PDF (spaces aside) is
 *   in the DOCX in the same order of characters (RTL and Indic text in logical order).
 * - compress-pdf: the output's size beside Ghostscript's `/ebook` of the same input.
 * - merge, split, organize: web links, the outline and the filled form fields a user would expect
 *   to find again (merge and organize: all of them; split: web links and fields over all parts).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { unzipSync } from "fflate";
import * as mupdf from "mupdf";
import { flatOutline } from "../tests/container/fixtures.ts";

/** compress-pdf's figures per file: input, ours and Ghostscript /ebook bytes. */
export const compressSizes = new Map<string, { input: number; ours: number; gs: number }>();

const scratch = mkdtempSync(join(tmpdir(), "outside-quality-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

/** Ghostscript's /ebook output's size for `file` (0 when it fails). */
function ghostscriptEbook(file: string): number {
  const out = join(scratch, "gs.pdf");
  try {
    execFileSync(
      "gs",
      [
        "-q",
        "-dNOPAUSE",
        "-dBATCH",
        "-dSAFER",
        "-sDEVICE=pdfwrite",
        "-dPDFSETTINGS=/ebook",
        `-sOutputFile=${out}`,
        file,
      ],
      { stdio: "ignore", timeout: 120_000 },
    );
    return statSync(out).size;
  } catch {
    return 0;
  } finally {
    rmSync(out, { force: true });
  }
}

export async function compressQuality(file: string, output: Uint8Array): Promise<string | null> {
  compressSizes.set(file, {
    input: statSync(file).size,
    ours: output.length,
    gs: ghostscriptEbook(file),
  });
  return null;
}

export function printCompressSizes(): void {
  let ours = 0;
  let gs = 0;
  console.log("\ncompress-pdf (medium) against Ghostscript /ebook:");
  for (const [file, size] of compressSizes) {
    const name = file.split("/").at(-1) ?? file;
    const ratio = size.gs > 0 ? (size.ours / size.gs).toFixed(2) : "-";
    console.log(
      `  ${name.padEnd(42)} in ${size.input} B  ours ${size.ours} B (${(size.ours / size.input).toFixed(3)})  gs ${size.gs} B  ours/gs ${ratio}`,
    );
    if (size.gs > 0) {
      ours += size.ours;
      gs += size.gs;
    }
  }
  if (gs > 0) console.log(`  total ours/gs ${(ours / gs).toFixed(3)}`);
}

// ---------------------------------------------------------------------------------------------
// PDF to Excel.

/** The cell's value as text (numbers as JavaScript writes them). */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object" && "richText" in value) return value.richText.map((run) => run.text).join("");
  if (typeof value === "object" && "result" in value) return String(value.result ?? "");
  return String(value).trim();
}

const sameNumber = (text: string, expected: number) =>
  Math.abs(Number(text.replace(/,/g, "")) - expected) < 0.005;

/** The text pdftotext reads in `file`, spaces collapsed. */
const popplerText = (file: string) =>
  execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");

/**
 * Whether each line item is in one row, its numbers under their headers. An item pdftotext does
 * not read as written is left out: the file's own text is wrong there (Ghostscript's rewriting of
 * Chromium's "ffi" ligature reads "o昀케ce" in every reader).
 */
export async function excelQuality(
  file: string,
  output: Uint8Array,
  allItems: readonly (readonly [string, number, number])[],
  headers: readonly string[],
): Promise<string | null> {
  const reference = popplerText(file);
  const items = allItems.filter(([item]) => reference.includes(item));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(output) as unknown as ArrayBuffer);
  const rows: string[][] = [];
  for (const sheet of workbook.worksheets)
    sheet.eachRow((row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cellText(cell);
      });
      rows.push(Array.from(cells, (cell) => cell ?? ""));
    });
  const header = rows.find((row) => headers.every((name) => row.includes(name)));
  if (header === undefined) return `no row holds the headers ${headers.join(" | ")}`;
  const columns = headers.map((name) => header.indexOf(name));
  for (const [item, quantity, price] of items) {
    const row = rows.find((cells) => cells[columns[0] ?? 0] === item);
    if (row === undefined) return `no row has "${item}" under ${headers[0]}`;
    const expected = [quantity, price, quantity * price];
    for (const [i, value] of expected.entries()) {
      const got = row[columns[i + 1] ?? 0] ?? "";
      if (!sameNumber(got, value)) return `"${item}": ${headers[i + 1]} reads "${got}", expected ${value}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// PDF to Word.

const squeeze = (text: string) => text.replace(/\s+/g, "");

/** The text of a DOCX's body, paragraph by paragraph. */
function docxText(bytes: Uint8Array): string {
  const xml = new TextDecoder().decode(unzipSync(bytes)["word/document.xml"]);
  return xml
    .replace(/<\/w:p>/g, "\n")
    .replace(/<w:tab\/>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Sentences pdftotext reads whole that the DOCX does not hold, in the same order of characters. */
export async function wordQuality(
  file: string,
  output: Uint8Array,
  lines: readonly string[],
): Promise<string | null> {
  const reference = squeeze(popplerText(file));
  const ours = squeeze(docxText(output));
  const lost = lines.filter((line) => reference.includes(squeeze(line)) && !ours.includes(squeeze(line)));
  return lost.length === 0
    ? null
    : `DOCX lacks ${lost.length} sentence(s) pdftotext reads: ${lost.join(" / ")}`;
}

// ---------------------------------------------------------------------------------------------
// Links, outline and form fields.

export interface Interactive {
  readonly webLinks: number;
  readonly pageLinks: number;
  readonly outline: number;
  /** Terminal form fields as "name=value". */
  readonly fields: readonly string[];
}

export function interactiveOf(bytes: Uint8Array): Interactive {
  const doc = new mupdf.PDFDocument(bytes);
  try {
    let webLinks = 0;
    let pageLinks = 0;
    for (let i = 0; i < doc.countPages(); i++)
      for (const link of doc.loadPage(i).getLinks()) {
        if (link.isExternal()) webLinks++;
        else pageLinks++;
      }
    const fields: string[] = [];
    const visit = (field: mupdf.PDFObject, prefix: string, depth: number) => {
      if (!field.isDictionary() || depth > 32) return;
      const own = field.get("T");
      const name = own.isString() ? (prefix ? `${prefix}.${own.asString()}` : own.asString()) : prefix;
      const kids = field.get("Kids");
      const named = kids.isArray() ? Array.from({ length: kids.length }, (_, i) => kids.get(i)) : [];
      if (named.some((kid) => kid.get("T").isString())) {
        for (const kid of named) visit(kid, name, depth + 1);
        return;
      }
      const value = field.getInheritable("V");
      fields.push(`${name}=${value.isString() ? value.asString() : value.isName() ? value.asName() : ""}`);
    };
    const list = doc.getTrailer().get("Root", "AcroForm", "Fields");
    if (list.isArray()) for (let i = 0; i < list.length; i++) visit(list.get(i), "", 0);
    return { webLinks, pageLinks, outline: flatOutline(doc).length, fields: fields.sort() };
  } finally {
    doc.destroy();
  }
}

const inputInteractive = new Map<string, Interactive>();
const interactiveOfFile = (file: string) => {
  let found = inputInteractive.get(file);
  if (found === undefined) {
    found = interactiveOf(new Uint8Array(readFileSync(file)));
    inputInteractive.set(file, found);
  }
  return found;
};

/** What `tool`'s output (the parts of split, already unzipped) lost of the input's links, outline and fields. */
export function interactiveQuality(
  tool: "merge-pdf" | "split-pdf" | "organize-pdf",
  file: string,
  outputs: readonly Uint8Array[],
): string | null {
  const source = interactiveOfFile(file);
  const got = outputs.map(interactiveOf);
  const sum = (key: "webLinks" | "pageLinks" | "outline") => got.reduce((total, one) => total + one[key], 0);
  const fields = got.flatMap((one) => one.fields).sort();
  const problems: string[] = [];
  if (sum("webLinks") < source.webLinks) problems.push(`web links ${source.webLinks} → ${sum("webLinks")}`);
  if (JSON.stringify(fields) !== JSON.stringify(source.fields))
    problems.push(`fields ${source.fields.join(",")} → ${fields.join(",")}`);
  if (tool !== "split-pdf") {
    if (sum("pageLinks") < source.pageLinks)
      problems.push(`page links ${source.pageLinks} → ${sum("pageLinks")}`);
    if (sum("outline") < source.outline) problems.push(`outline items ${source.outline} → ${sum("outline")}`);
  }
  return problems.length === 0 ? null : problems.join("; ");
}

// ---------------------------------------------------------------------------------------------
// Where page numbers, the watermark and the signature land on the page as a viewer shows it.

/** Runs a poppler tool on `bytes` written to a scratch file ("{}" in `args`). */
function popplerOn(command: string, args: readonly string[], bytes: Uint8Array): string {
  const file = join(scratch, `${command}-${process.hrtime.bigint()}.pdf`);
  writeFileSync(file, bytes);
  try {
    return execFileSync(
      command,
      args.map((arg) => (arg === "{}" ? file : arg)),
      { encoding: "latin1", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] },
    );
  } finally {
    rmSync(file, { force: true });
  }
}

/** A word's box on page `page` as pdftotext -bbox gives it, as fractions of the shown page. */
function wordBox(
  bytes: Uint8Array,
  page: number,
  word: string,
): { at: [number, number, number, number]; small: boolean } | undefined {
  const xhtml = popplerOn("pdftotext", ["-bbox", "-f", `${page}`, "-l", `${page}`, "{}", "-"], bytes);
  const size = /<page width="([\d.]+)" height="([\d.]+)"/.exec(xhtml);
  const found = [
    ...xhtml.matchAll(
      /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)<\/word>/g,
    ),
  ].find((match) => match[5] === word);
  if (size === null || found === undefined) return undefined;
  // pdftotext gives the page's size unturned, and the words' boxes on the page as shown.
  const info = popplerOn("pdfinfo", ["-f", `${page}`, "-l", `${page}`, "{}"], bytes);
  const turned = Number(/^Page\s+\d+\s+rot:\s+(\d+)/m.exec(info)?.[1] ?? 0) % 180 === 90;
  const [w, h] = turned ? [Number(size[2]), Number(size[1])] : [Number(size[1]), Number(size[2])];
  return {
    at: [Number(found[1]) / w, Number(found[2]) / h, Number(found[3]) / w, Number(found[4]) / h],
    small: Math.min(w, h) < SMALL_PAGE,
  };
}

const fractions = (box: readonly number[]) => box.map((v) => v.toFixed(2)).join(", ");

/** Pages up to which page numbers are checked on every page (beyond, on the first and last). */
const EVERY_PAGE = 12;
/** A page this small (points) shows a label shrunk to fit across it, not in a corner. */
const SMALL_PAGE = 100;

/**
 * Page numbers (bottom-right): each checked page's number lies in the bottom-right quarter of the
 * page as shown (pdftotext's boxes), unless the page is too small for any corner.
 */
export function numbersQuality(output: Uint8Array, pages: number, first: number): string | null {
  const checked = pages <= EVERY_PAGE ? Array.from({ length: pages }, (_, i) => i + 1) : [1, pages];
  for (const page of checked) {
    const box = wordBox(output, page, `${first + page - 1}`);
    if (box === undefined) return `pdftotext -bbox finds no ${first + page - 1} on page ${page}`;
    if (box.small) continue;
    const [x0, y0, x1, y1] = box.at;
    if (x0 < 0.5 || y0 < 0.5 || x1 > 1.001 || y1 > 1.001)
      return `page ${page}'s number at (${fractions(box.at)}) of the shown page, not in its bottom-right corner`;
  }
  return null;
}

/** Page 1 in grey as pdftoppm shows it (its crop box: pdftoppm's default is the media box), `dpi` dots per inch. */
function greyPage(bytes: Uint8Array, dpi: number): { width: number; height: number; pixels: Uint8Array } {
  const pgm = Buffer.from(
    popplerOn("pdftoppm", ["-f", "1", "-l", "1", "-r", `${dpi}`, "-cropbox", "-gray", "{}"], bytes),
    "latin1",
  );
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString("latin1"));
  if (header === null) throw new Error("pdftoppm gave no PGM");
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, pixels: new Uint8Array(pgm.subarray(header[0].length)) };
}

/** The box (fractions of the shown page) of the pixels that differ between the two pages 1. */
function changedBox(input: Uint8Array, output: Uint8Array): [number, number, number, number] | undefined {
  const page = (bytes: Uint8Array) => {
    const probe = greyPage(bytes, 9);
    // About 200 pixels across whatever the page's size (a 14,400-point page at 9 dpi is 1800).
    return greyPage(bytes, Math.max(1, Math.min(72, (200 * 9) / probe.width)));
  };
  const [before, after] = [page(input), page(output)];
  if (before.width !== after.width || before.height !== after.height) return undefined;
  let [x0, y0, x1, y1] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -1, -1];
  for (let y = 0; y < after.height; y++)
    for (let x = 0; x < after.width; x++) {
      const i = y * after.width + x;
      if (Math.abs((before.pixels[i] ?? 0) - (after.pixels[i] ?? 0)) < 24) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + 1);
      y1 = Math.max(y1, y + 1);
    }
  if (x1 < 0) return undefined;
  return [x0 / after.width, y0 / after.height, x1 / after.width, y1 / after.height];
}

/**
 * The signature (placed at x 0.05, y 0.05, 0.1 of the width wide): what changed on page 1 starts
 * near the shown page's top-left corner and is about that wide.
 */
export function signQuality(input: Uint8Array, output: Uint8Array): string | null {
  const box = changedBox(input, output);
  if (box === undefined) return "page 1 looks the same after signing (or changed size)";
  const [x0, y0, x1] = box;
  const near = (value: number, target: number) => Math.abs(value - target) <= 0.03;
  return near(x0, 0.05) && near(y0, 0.05) && near(x1 - x0, 0.1)
    ? null
    : `the signature shows at (${fractions(box)}) of the page, placed at (0.05, 0.05) 0.1 wide`;
}

/** The watermark (centred by default): what changed on page 1 is centred on the shown page. */
export function watermarkQuality(input: Uint8Array, output: Uint8Array): string | null {
  const box = changedBox(input, output);
  if (box === undefined) return "page 1 looks the same after the watermark (or changed size)";
  const [x0, y0, x1, y1] = box;
  const centre = [(x0 + x1) / 2, (y0 + y1) / 2];
  return centre.every((value) => Math.abs(value - 0.5) <= 0.1)
    ? null
    : `the watermark shows at (${fractions(box)}) of the page, not centred`;
}
