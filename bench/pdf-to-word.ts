/**
 * PDF to Word benchmark on the corpus (../shared/corpus/pdf, the first MAX_PAGES pages of each
 * file), side by side with LibreOffice's own PDF import exported as DOCX (the usual free peer),
 * both scored against poppler's `pdftotext` text of the same pages:
 * - text fidelity: word F1 and word-trigram F1 (order) of the DOCX text (body with list labels;
 *   header and footer on every page, as Word shows them) against the PDF's text (trigrams also
 *   against `pdftotext -raw` and a per-page reading-order reference: see `references`), words as
 *   Unicode letter/digit runs (each Chinese or Japanese character one word), NFKC, lower case,
 *   hyphenated line ends joined in both; goals
 *   ≥ 0.98 and ≥ 0.95 on text PDFs;
 * - structure: "merged" is the share of pdftotext's full prose lines whose junction with the next
 *   line of the same block (last two words + first two words) lies inside one DOCX paragraph
 *   (mergedShare), goal ≥ 0.8 on prose; headings counted by Word Heading style, and the share of the PDF's
 *   bookmarks (on the converted pages) found as a heading;
 * - validity: every DOCX opens with mammoth and, when LibreOffice can be installed, with it.
 * Without a corpus, PDFs built in code are measured. Run: `npm run bench:pdf-to-word [file.pdf …]`
 * (only the named corpus files when given; installs poppler-utils and libreoffice-writer-nogui
 * with apt when missing; says so when it cannot).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import mammoth from "mammoth";
import * as mupdf from "mupdf";
import { AppError } from "../contract/index.ts";
import { pdfToWord } from "../engines/pdf/pdf-to-word.ts";
import { htmlPdf } from "../tests/container/rich-pdf.ts";
import {
  type DocxParagraph,
  docxParts,
  formatNumber,
  lastSectionNumbering,
  listLabels,
  type PageNumbering,
  paragraphsOf,
} from "../tests/support/docx.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const MAX_PAGES = 15;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "pdf-to-word-bench-"));

interface Input {
  readonly name: string;
  readonly path: string;
  readonly pages: number;
  readonly outline: readonly string[];
}

interface Scores {
  readonly wordF1: number;
  /** Against pdftotext's default order, its -raw order, and the per-page reading-order reference. */
  readonly trigramF1: number;
  readonly rawTrigramF1: number;
  readonly orderedTrigramF1: number;
  readonly merged: number | null;
  readonly headings: number;
  readonly outlineFound: number | null;
  readonly mammoth: boolean;
  readonly libreOffice: boolean | null;
  readonly seconds: number;
}

function tokens(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .replace(/(\p{L})[-\u2010\u00AD]\n\s*(\p{Ll})/gu, "$1$2")
      // Chinese and Japanese put no spaces between words: each of their characters is a token.
      .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, " $& ")
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  );
}

function f1(candidate: readonly string[], reference: readonly string[]): number {
  if (candidate.length === 0 && reference.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const item of reference) counts.set(item, (counts.get(item) ?? 0) + 1);
  let overlap = 0;
  for (const item of candidate) {
    const left = counts.get(item) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(item, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / candidate.length;
  const recall = overlap / reference.length;
  return (2 * precision * recall) / (precision + recall);
}

const grams = (words: readonly string[], n: number) =>
  words.slice(0, Math.max(0, words.length - n + 1)).map((_, i) => words.slice(i, i + n).join(" "));

/**
 * Share of pdftotext's prose line junctions that fall inside one DOCX paragraph (null: too few).
 * A junction is a full line (≥ 6 words, at least 85 % as long as the longest line of its block,
 * no dot leaders, not ending in a hyphen) and the line after it in the same block: text that runs
 * on, which a reflowed document must keep in one paragraph.
 */
function mergedShare(reference: string, paragraphs: readonly string[]): number | null {
  const inside = new Set(paragraphs.flatMap((paragraph) => grams(tokens(paragraph), 4)));
  let total = 0;
  let merged = 0;
  for (const block of reference.split(/\n\s*\n/)) {
    const lines = block.split("\n");
    const longest = Math.max(...lines.map((line) => line.trim().length));
    for (let i = 0; i + 1 < lines.length; i++) {
      const line = lines[i] ?? "";
      const a = tokens(line);
      const b = tokens(lines[i + 1] ?? "");
      const full = line.trim().length >= longest * 0.85;
      if (
        !full ||
        a.length < 6 ||
        b.length < 2 ||
        /(\.\s?){4,}/.test(line) ||
        /[-\u2010\u00AD]\s*$/.test(line)
      )
        continue;
      // A sentence end before a capital may be a paragraph end that pdftotext kept in its block.
      if (/[.!?:]["”’)]?\s*$/.test(line) && /^\s*[\p{Lu}\d•>$]/u.test(lines[i + 1] ?? "")) continue;
      total++;
      if (inside.has([...a.slice(-2), ...b.slice(0, 2)].join(" "))) merged++;
    }
  }
  return total < 10 ? null : merged / total;
}

function ensureTools(): { libreOffice: boolean } {
  if (spawnSync("pdftotext", ["-v"]).error !== undefined) {
    console.log("pdftotext is missing: installing poppler-utils with apt-get.");
    spawnSync("apt-get", ["install", "-y", "poppler-utils"], { stdio: "inherit" });
  }
  if (spawnSync("soffice", ["--version"]).error !== undefined) {
    console.log("LibreOffice is missing: installing libreoffice-writer-nogui with apt-get.");
    spawnSync("apt-get", ["install", "-y", "libreoffice-writer-nogui"], { stdio: "inherit" });
  }
  const libreOffice = spawnSync("soffice", ["--version"]).error === undefined;
  if (!libreOffice) console.log("LibreOffice could not be installed: its columns are left empty.");
  return { libreOffice };
}

type OutlineItems = ReturnType<mupdf.Document["loadOutline"]>;

function flatOutline(doc: mupdf.Document, items: OutlineItems | undefined, pages: number): string[] {
  const titles: string[] = [];
  for (const item of items ?? []) {
    let page = item.page;
    if (page === undefined && item.uri) {
      try {
        page = doc.resolveLink(item.uri);
      } catch {
        page = undefined;
      }
    }
    if (item.title && page !== undefined && page >= 0 && page < pages) titles.push(item.title);
    titles.push(...flatOutline(doc, item.down, pages));
  }
  return titles;
}

function inputs(): Input[] {
  if (!existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: measuring PDFs built in code.`);
    const path = join(work, "built.pdf");
    const paragraph =
      "A sentence of ordinary prose that runs on long enough to wrap over several lines. ".repeat(8);
    writeFileSync(path, htmlPdf(`<h1>Built</h1><p>${paragraph}</p><h2>More</h2><p>${paragraph}</p>`));
    return [{ name: "built.pdf", path, pages: 1, outline: [] }];
  }
  const result: Input[] = [];
  const only = process.argv.slice(2);
  for (const name of readdirSync(corpus)
    .filter((file) => file.endsWith(".pdf") && (only.length === 0 || only.includes(file)))
    .sort()) {
    try {
      const source = new mupdf.PDFDocument(readFileSync(join(corpus, name)));
      if (source.needsPassword() || source.countPages() === 0) {
        result.push({ name, path: join(corpus, name), pages: 0, outline: [] });
        continue;
      }
      const pages = Math.min(MAX_PAGES, source.countPages());
      const outline = flatOutline(source, source.loadOutline() ?? undefined, pages);
      const copy = new mupdf.PDFDocument();
      for (let i = 0; i < pages; i++) copy.graftPage(-1, source, i);
      const path = join(work, name);
      writeFileSync(path, copy.saveToBuffer("").asUint8Array());
      result.push({ name, path, pages, outline });
    } catch {
      result.push({ name, path: join(corpus, name), pages: 0, outline: [] });
    }
  }
  return result;
}

/**
 * pdftotext's text of each visible page, in one of its modes ("" its default reading order,
 * "-raw" content-stream order, "-layout" physical lines). pdftotext reads each page's whole
 * MediaBox, where printers' slugs and crop marks outside the CropBox (the page viewers show and
 * print) also are, and its `-cropbox` flag changes the page size but keeps that text: a page whose
 * CropBox is smaller is read on its own with `-x -y -W -H` set to the CropBox (unrotated pages).
 */
function pdftotextPages(path: string, mode: "" | "-raw" | "-layout"): string[] {
  const run = (args: readonly string[]) => {
    const result = spawnSync(
      "pdftotext",
      [...args, ...(mode === "" ? [] : [mode]), "-enc", "UTF-8", path, "-"],
      { maxBuffer: 1 << 28 },
    );
    return result.status === 0 ? result.stdout.toString("utf8") : "";
  };
  // pdftotext ends every page with a form feed.
  const pages = (text: string) => text.split("\f").slice(0, -1);
  const info = spawnSync("pdfinfo", ["-box", "-f", "1", "-l", "100000", path]).stdout?.toString() ?? "";
  const boxes = new Map<number, { media?: number[]; crop?: number[]; rotate?: number }>();
  for (const match of info.matchAll(/^Page\s+(\d+)\s+(MediaBox|CropBox|rot):\s+(.+)$/gm)) {
    const page = Number(match[1]);
    const entry = boxes.get(page) ?? {};
    const values = (match[3] ?? "").trim().split(/\s+/).map(Number);
    if (match[2] === "MediaBox") entry.media = values;
    else if (match[2] === "CropBox") entry.crop = values;
    else entry.rotate = values[0] ?? 0;
    boxes.set(page, entry);
  }
  const cropped = [...boxes.values()].some(
    ({ media, crop }) =>
      media && crop && media.some((value, i) => Math.abs(value - (crop[i] ?? value)) > 0.5),
  );
  if (!cropped) return pages(run([]));
  return [...boxes.keys()]
    .sort((a, b) => a - b)
    .map((page) => {
      const { media = [], crop = [], rotate = 0 } = boxes.get(page) ?? {};
      const range = ["-f", String(page), "-l", String(page)];
      const [mx0 = 0, , , my1 = 0] = media;
      const [cx0 = 0, cy0 = 0, cx1 = 0, cy1 = 0] = crop;
      if (rotate % 360 !== 0 || crop.length < 4) return pages(run(range))[0] ?? "";
      // pdftotext's area is in points from the MediaBox's top left corner.
      const area = [Math.floor(cx0 - mx0), Math.floor(my1 - cy1), Math.ceil(cx1 - cx0), Math.ceil(cy1 - cy0)];
      const areaArgs = ["-x", ...[area[0], "-y", area[1], "-W", area[2], "-H", area[3]].map(String)];
      return pages(run([...range, ...areaArgs]))[0] ?? "";
    });
}

interface References {
  /** pdftotext's default reading order (its column detection). */
  readonly text: string;
  /** pdftotext -raw: content-stream order. */
  readonly raw: string;
  /** Per page, whichever of the two keeps the page's physical lines better (see below). */
  readonly ordered: string;
  /** Pages where the raw order was taken. */
  readonly rawPages: number;
}

/**
 * The references of a PDF. pdftotext's default order cuts a page into blocks by its own column
 * detection, and on a table of contents it reads the titles as one column and their page numbers
 * as another (a line "abbreviate . . . . 7" becomes "abbreviate" … "7" many lines apart), which
 * is not the order anyone reads; -raw keeps the content stream's order, which is the reading order
 * for most producers but arbitrary for some. Per page, the "ordered" reference takes the one whose
 * word trigrams agree more with pdftotext -layout's text of that page (its physical lines, top to
 * bottom: a title and its page number on one line, but two columns side by side), the default on
 * a tie. The choice looks at the PDF alone, never at the DOCX being scored.
 */
function references(path: string): References {
  const text = pdftotextPages(path, "");
  const raw = pdftotextPages(path, "-raw");
  const layout = pdftotextPages(path, "-layout");
  let rawPages = 0;
  const ordered = text.map((page, i) => {
    const lines = grams(tokens(layout[i] ?? ""), 3);
    const rawPage = raw[i] ?? page;
    const better = f1(grams(tokens(rawPage), 3), lines) > f1(grams(tokens(page), 3), lines);
    if (better) rawPages++;
    return better ? rawPage : page;
  });
  return { text: text.join("\f"), raw: raw.join("\f"), ordered: ordered.join("\f"), rawPages };
}

/**
 * Texts of the DOCX as a reader sees its pages: on each page the header's paragraphs, the body's
 * paragraphs of that page (pages split at page breaks), then the footer's. Word shows a header and
 * footer on every page of the section, with PAGE fields as that page's number (from its section's
 * start number and in its format, e.g. roman), so they are counted once per PDF page, as pdftotext has them once per page; a
 * header put on pages that had none counts against precision. A list item's label ("3.", "b)")
 * is counted before its text, as Word numbers it.
 */
function docxTexts(bytes: Uint8Array, pages: number): { paragraphs: string[]; headings: string[] } {
  const parts = docxParts(bytes);
  const body = paragraphsOf(parts.document);
  // Every section repeats its header part: distinct parts only.
  const edge = (xmls: readonly string[]) => [...new Set(xmls)].flatMap((xml) => paragraphsOf(xml));
  const header = edge(parts.headers);
  const footer = edge(parts.footers);
  const labels = listLabels(body, parts.numbering);
  // Pages split at page breaks, each with the section it is in.
  const byPage: { texts: string[]; section: number }[] = [{ texts: [], section: 0 }];
  const sections: PageNumbering[] = [];
  // A section starts on a new page (Word's default section break).
  let sectionStart = false;
  body.forEach((paragraph, i) => {
    const page = byPage.at(-1) as { texts: string[]; section: number };
    const current = { texts: [] as string[], section: sections.length };
    if ((paragraph.pageBreakBefore || sectionStart) && page.texts.length > 0) byPage.push(current);
    else if (page.texts.length === 0) page.section = sections.length;
    sectionStart = paragraph.sectionEnd !== null;
    const label = labels[i] ?? "";
    byPage.at(-1)?.texts.push(label === "" ? paragraph.text : `${label} ${paragraph.text}`);
    if (paragraph.sectionEnd !== null) sections.push(paragraph.sectionEnd);
  });
  sections.push(lastSectionNumbering(parts.document));
  // The number each page shows: its section's start, or counting on from the page before.
  const numbers: string[] = [];
  let value = 0;
  for (let page = 0; page < Math.max(pages, byPage.length); page++) {
    const section = byPage[page]?.section ?? sections.length - 1;
    const numbering = sections[section] ?? { start: null, format: "decimal" };
    const first = page === 0 || (byPage[page - 1]?.section ?? section) !== section;
    value = first && numbering.start !== null ? numbering.start : page === 0 ? 1 : value + 1;
    numbers.push(formatNumber(value, numbering.format));
  }
  const shown = (list: readonly DocxParagraph[], page: number) =>
    list.map((p) =>
      p.runs.map((run) => (run.pageField && run.text === "" ? numbers[page] : run.text)).join(""),
    );
  const paragraphs: string[] = [];
  for (let page = 0; page < Math.max(pages, byPage.length); page++) {
    paragraphs.push(...shown(header, page), ...(byPage[page]?.texts ?? []), ...shown(footer, page));
  }
  return {
    paragraphs,
    headings: body.filter((p) => /^Heading\d$/.test(p.style ?? "")).map((p) => p.text),
  };
}

async function opensWithMammoth(bytes: Uint8Array): Promise<boolean> {
  try {
    await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return true;
  } catch {
    return false;
  }
}

/** LibreOffice reads the DOCX and writes it as plain text without failing. */
function opensWithLibreOffice(path: string): boolean {
  const outdir = join(work, "lo-text");
  const run = spawnSync(
    "soffice",
    [
      "--headless",
      `-env:UserInstallation=file://${work}/lo-profile`,
      "--convert-to",
      "txt:Text",
      "--outdir",
      outdir,
      path,
    ],
    { timeout: 90_000 },
  );
  const out = join(
    outdir,
    path
      .split("/")
      .pop()
      ?.replace(/\.docx$/, ".txt") ?? "",
  );
  return run.status === 0 && existsSync(out);
}

/** LibreOffice's own PDF import exported as DOCX (the peer), or null when it fails. */
function libreOfficeDocx(input: Input): { bytes: Uint8Array; seconds: number } | null {
  const outdir = join(work, "lo-docx");
  const started = performance.now();
  const run = spawnSync(
    "soffice",
    [
      "--headless",
      `-env:UserInstallation=file://${work}/lo-profile`,
      "--infilter=writer_pdf_import",
      "--convert-to",
      "docx:MS Word 2007 XML",
      "--outdir",
      outdir,
      input.path,
    ],
    { timeout: 120_000 },
  );
  const out = join(outdir, input.name.replace(/\.pdf$/, ".docx"));
  if (run.status !== 0 || !existsSync(out)) return null;
  return { bytes: new Uint8Array(readFileSync(out)), seconds: (performance.now() - started) / 1000 };
}

async function score(
  bytes: Uint8Array,
  seconds: number,
  refs: References,
  input: Input,
  libreOffice: boolean,
  label: string,
): Promise<Scores> {
  const reference = refs.text;
  const { paragraphs, headings } = docxTexts(bytes, input.pages);
  const words = tokens(paragraphs.join("\n"));
  const expected = tokens(reference);
  const trigrams = grams(words, 3);
  const headingText = headings.map((h) => tokens(h).join(" "));
  const found = input.outline.filter((title) => {
    const wanted = tokens(title).join(" ");
    return wanted !== "" && headingText.some((h) => h.includes(wanted) || (h !== "" && wanted.includes(h)));
  }).length;
  const path = join(work, `${label}-${input.name}.docx`);
  writeFileSync(path, bytes);
  return {
    wordF1: f1(words, expected),
    trigramF1: f1(trigrams, grams(expected, 3)),
    rawTrigramF1: f1(trigrams, grams(tokens(refs.raw), 3)),
    orderedTrigramF1: f1(trigrams, grams(tokens(refs.ordered), 3)),
    merged: mergedShare(reference, paragraphs),
    headings: headings.length,
    outlineFound: input.outline.length === 0 ? null : found / input.outline.length,
    mammoth: await opensWithMammoth(bytes),
    libreOffice: libreOffice ? opensWithLibreOffice(path) : null,
    seconds,
  };
}

const fixed = (value: number | null, digits = 3) => (value === null ? "–" : value.toFixed(digits));
const yes = (value: boolean | null) => (value === null ? "–" : value ? "yes" : "**no**");

const { libreOffice } = ensureTools();
console.log(`# PDF to Word (${process.version}; first ${MAX_PAGES} pages of each corpus file)\n`);
console.log(
  "Trigram F1 against three references: pdftotext's default order (`3-gram`), `pdftotext -raw` " +
    "(content-stream order, `3-gram raw`) and, per page, whichever of the two agrees more with " +
    "`pdftotext -layout`'s physical lines (`3-gram ordered`; `raw pages` says how many pages took -raw).\n",
);
console.log(
  "| file | pages | ref words | word F1 | 3-gram | 3-gram raw | 3-gram ordered | raw pages | merged | headings | bookmarks found | mammoth | LibreOffice opens | s | LO word F1 | LO 3-gram | LO 3-gram ordered | LO merged | LO s |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
const text: { ours: Scores; peer: Scores | null; words: number }[] = [];
for (const input of inputs()) {
  if (input.pages === 0) {
    console.log(`| ${input.name} | – | – | MuPDF cannot open it (encrypted or damaged) |||||||||||||||||`);
    continue;
  }
  const refs = references(input.path);
  const words = tokens(refs.text).length;
  const bytes = new Uint8Array(readFileSync(input.path));
  const started = performance.now();
  let docx: Uint8Array;
  try {
    docx = (await pdfToWord([{ name: input.name, kind: "pdf", bytes }], {}, () => {})).bytes;
  } catch (error) {
    const code = error instanceof AppError ? error.code : String(error);
    console.log(`| ${input.name} | ${input.pages} | ${words} | refused: ${code} |||||||||||||||||`);
    continue;
  }
  const ours = await score(docx, (performance.now() - started) / 1000, refs, input, libreOffice, "ours");
  const lo = libreOffice ? libreOfficeDocx(input) : null;
  const peer = lo === null ? null : await score(lo.bytes, lo.seconds, refs, input, false, "lo");
  text.push({ ours, peer, words });
  console.log(
    `| ${input.name} | ${input.pages} | ${words} | ${fixed(ours.wordF1)} | ${fixed(ours.trigramF1)} | ${fixed(ours.rawTrigramF1)} | ${fixed(ours.orderedTrigramF1)} | ${refs.rawPages} | ${fixed(ours.merged, 2)} | ${ours.headings} | ${ours.outlineFound === null ? "–" : `${Math.round(ours.outlineFound * 100)} %`} | ${yes(ours.mammoth)} | ${yes(ours.libreOffice)} | ${ours.seconds.toFixed(1)} | ${fixed(peer?.wordF1 ?? null)} | ${fixed(peer?.trigramF1 ?? null)} | ${fixed(peer?.orderedTrigramF1 ?? null)} | ${fixed(peer?.merged ?? null, 2)} | ${peer ? peer.seconds.toFixed(1) : "–"} |`,
  );
}
const textPdfs = text.filter((row) => row.words >= 100);
const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
const ourMean = (pick: (scores: Scores) => number) => fixed(mean(textPdfs.map((row) => pick(row.ours))));
const peerMean = (pick: (scores: Scores) => number) =>
  fixed(mean(textPdfs.flatMap((row) => (row.peer ? [pick(row.peer)] : []))));
const prose = textPdfs.flatMap((row) => (row.ours.merged === null ? [] : [row.ours.merged]));
const peerProse = textPdfs.flatMap((row) => (row.peer?.merged == null ? [] : [row.peer.merged]));
console.log(
  `\nText PDFs (≥ 100 reference words): ${textPdfs.length}. Mean word F1 ${ourMean((s) => s.wordF1)} (goal ≥ 0.98; LibreOffice import ${peerMean((s) => s.wordF1)}), ` +
    `trigram F1 ${ourMean((s) => s.trigramF1)} against pdftotext, ${ourMean((s) => s.rawTrigramF1)} against -raw, ${ourMean((s) => s.orderedTrigramF1)} against the ordered reference (goal ≥ 0.95; LibreOffice ${peerMean((s) => s.trigramF1)}, ${peerMean((s) => s.rawTrigramF1)}, ${peerMean((s) => s.orderedTrigramF1)}), ` +
    `merged prose lines ${fixed(mean(prose), 2)} on ${prose.length} prose files (goal ≥ 0.8; LibreOffice ${fixed(mean(peerProse), 2)}). ` +
    `Opened by mammoth: ${text.filter((r) => r.ours.mammoth).length}/${text.length}; by LibreOffice: ${libreOffice ? `${text.filter((r) => r.ours.libreOffice).length}/${text.length}` : "not installed"}.`,
);
rmSync(work, { recursive: true, force: true });
