/**
 * Markdown to PDF benchmark: our engine (engines/markdown/) against pandoc → HTML → WeasyPrint,
 * side by side in one run, on every Markdown file of ../shared/corpus/md plus a built sample in
 * Hindi, Telugu and Tamil. Per file: pages, seconds, pages per second, output size, and word F1
 * of the text extracted back (MuPDF, and Poppler's pdftotext for ours) per script present, against
 * the text the Markdown shows.
 * Totals: pages per second and bytes per page, ours / WeasyPrint.
 * Run: `npm run bench:markdown-to-pdf` (installs pandoc and weasyprint with apt when missing; the
 * reference runs with the system's fonts, which may lack Indic ones).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { markdownToPdf } from "../engines/markdown/markdown-to-pdf.ts";
import {
  hasPdftotext,
  popplerText,
  type ScriptName,
  scriptScores,
  visibleText,
} from "../tests/support/script-text.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const corpus = fileURLToPath(new URL("../../shared/corpus/md/", import.meta.url));
const TIMEOUT_MS = 300_000;

function ensureTools(): boolean {
  const missing = ["pandoc", "weasyprint"].filter((command) => spawnSync("which", [command]).status !== 0);
  if (missing.length === 0) return true;
  console.log(`Installing ${missing.join(", ")} with apt-get (missing)…`);
  spawnSync("apt-get", ["update"], { stdio: "ignore" });
  const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "pandoc", "weasyprint"], {
    stdio: "ignore",
  });
  return install.status === 0;
}

const SAMPLE = [
  "# भारत की भाषाएँ",
  "हिन्दी भारत की राजभाषा है। क्षत्रिय, श्रीमान, द्वार, प्रकृति, धर्म और विद्यालय जैसे शब्दों में संयुक्ताक्षर होते हैं।",
  "## తెలుగు",
  "తెలుగు దక్షిణ భారతదేశంలో మాట్లాడే ద్రావిడ భాష. క్షమ, శ్రీకాకుళం, స్త్రీ, ప్రపంచం వంటి పదాల్లో ఒత్తులు ఉంటాయి.",
  "## தமிழ்",
  "தமிழ் உலகின் மிகப் பழமையான மொழிகளில் ஒன்று. க்ஷேத்திரம், ஸ்ரீ, கொடி, கோவில், பௌர்ணமி போன்ற சொற்களில் உயிர்மெய் எழுத்துகள் உள்ளன.",
  "| a | b |\n|:--|--:|\n| १ | ౨ |",
  "- [x] done\n- [ ] todo",
].join("\n\n");

interface Run {
  readonly pages: number;
  readonly seconds: number;
  readonly bytes: number;
  readonly scores: Partial<Record<ScriptName, number>>;
  /** The same from Poppler's pdftotext (what Linux viewers copy), when installed. */
  readonly copied?: Partial<Record<ScriptName, number>>;
}

async function ours(markdown: string, name: string): Promise<Run> {
  const started = performance.now();
  const output = await markdownToPdf(
    [{ name, kind: "markdown", bytes: new TextEncoder().encode(markdown) }],
    { page_size: "a4" },
    () => {},
  );
  const seconds = (performance.now() - started) / 1000;
  const pages = typeof output.facts.pages === "number" ? output.facts.pages : 0;
  return {
    pages,
    seconds,
    bytes: output.bytes.byteLength,
    scores: scriptScores(visibleText(markdown), output.bytes),
    ...(hasPdftotext ? { copied: scriptScores(visibleText(markdown), output.bytes, popplerText) } : {}),
  };
}

function reference(markdown: string, folder: string): Run | null {
  const source = join(folder, "in.md");
  const html = join(folder, "in.html");
  const pdf = join(folder, "out.pdf");
  writeFileSync(source, markdown);
  const started = performance.now();
  const toHtml = spawnSync(
    "pandoc",
    ["-f", "gfm", "-t", "html5", "-s", "--metadata", "title=doc", "-o", html, source],
    {
      timeout: TIMEOUT_MS,
    },
  );
  if (toHtml.status !== 0) return null;
  const toPdf = spawnSync("weasyprint", [html, pdf], { timeout: TIMEOUT_MS });
  if (toPdf.status !== 0 || !existsSync(pdf)) return null;
  const seconds = (performance.now() - started) / 1000;
  const bytes = new Uint8Array(readFileSync(pdf));
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const pages = doc.countPages();
  doc.destroy();
  return { pages, seconds, bytes: bytes.byteLength, scores: scriptScores(visibleText(markdown), bytes) };
}

const scoreText = (scores: Partial<Record<ScriptName, number>>) =>
  Object.entries(scores)
    .map(([script, score]) => `${script.slice(0, 4)} ${score.toFixed(3)}`)
    .join(", ");

const files: [string, string][] = [["sample-hi-te-ta.md", SAMPLE]];
if (existsSync(corpus)) {
  for (const file of readdirSync(corpus).sort()) {
    if (file.endsWith(".md") && file !== "SOURCES.md")
      files.push([file, readFileSync(join(corpus, file), "utf8")]);
  }
} else {
  console.log(`No corpus at ${corpus}: the built sample only.`);
}
const withReference = ensureTools();
if (!withReference) console.log("pandoc/weasyprint could not be installed: ours alone.");

const folder = mkdtempSync(join(tmpdir(), "md-bench-"));
const rows: string[][] = [];
const totals = { ours: { pages: 0, seconds: 0, bytes: 0 }, ref: { pages: 0, seconds: 0, bytes: 0 } };
try {
  for (const [name, markdown] of files) {
    const mine = await ours(markdown, name);
    const theirs = withReference ? reference(markdown, folder) : null;
    totals.ours.pages += mine.pages;
    totals.ours.seconds += mine.seconds;
    totals.ours.bytes += mine.bytes;
    if (theirs !== null) {
      totals.ref.pages += theirs.pages;
      totals.ref.seconds += theirs.seconds;
      totals.ref.bytes += theirs.bytes;
    }
    rows.push([
      name,
      `${mine.pages}`,
      (mine.pages / mine.seconds).toFixed(2),
      `${(mine.bytes / 1024).toFixed(0)} KB`,
      scoreText(mine.scores),
      mine.copied === undefined ? "—" : scoreText(mine.copied),
      theirs === null ? "—" : `${theirs.pages}`,
      theirs === null ? "—" : (theirs.pages / theirs.seconds).toFixed(2),
      theirs === null ? "—" : `${(theirs.bytes / 1024).toFixed(0)} KB`,
      theirs === null ? "—" : scoreText(theirs.scores),
    ]);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const header = [
  "file",
  "pages",
  "pages/s",
  "size",
  "F1 per script (MuPDF)",
  "F1 (pdftotext)",
  "ref pages",
  "ref pages/s",
  "ref size",
  "ref F1",
];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
const rate = (side: { pages: number; seconds: number }) => side.pages / side.seconds;
const perPage = (side: { pages: number; bytes: number }) => side.bytes / Math.max(1, side.pages);
console.log(
  `\nours: ${totals.ours.pages} pages in ${totals.ours.seconds.toFixed(1)} s = ${rate(totals.ours).toFixed(2)} pages/s, ` +
    `${(perPage(totals.ours) / 1024).toFixed(1)} KB/page`,
);
if (totals.ref.pages > 0) {
  console.log(
    `pandoc+WeasyPrint: ${totals.ref.pages} pages in ${totals.ref.seconds.toFixed(1)} s = ${rate(totals.ref).toFixed(2)} pages/s, ` +
      `${(perPage(totals.ref) / 1024).toFixed(1)} KB/page`,
  );
  console.log(
    `ratios ours/reference: speed ${(rate(totals.ours) / rate(totals.ref)).toFixed(2)}×, bytes per page ${(perPage(totals.ours) / perPage(totals.ref)).toFixed(2)}×`,
  );
}
