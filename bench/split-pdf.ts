/**
 * Split benchmark: the largest PDFs of ../shared/corpus/pdf split into every page and into 100-page
 * parts, side by side in one run: our engine alone (engines/pdf/split.ts, in this process), ours
 * end to end through the API (converter + wrangler dev, upload to SUCCESS), and
 * `qpdf --split-pages`. Time is the median of the runs; size is the total of the parts written
 * (our ZIP is stored, so its size is the parts plus a few bytes of headers per entry).
 * Run: `npm run bench:split-pdf` (installs qpdf from apt when missing, as root, and says so).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unzipSync } from "fflate";
import * as mupdf from "mupdf";
import { splitPdf } from "../engines/pdf/split.ts";
import type { SplitOptions } from "../engines/pdf/split-parts.ts";
import splitTool from "../tools/split-pdf/tool.ts";
import { BenchClient, median, taskForm, withStack } from "./api-driver.ts";

// MuPDF's warnings about the damaged corpus files are expected: keep the report readable.
mupdf.setLog({ warning: () => {}, error: () => {} });

const RUNS = 3;
const FILES = 3;
const PART_PAGES = 100;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));

interface Job {
  readonly label: string;
  readonly options: SplitOptions;
  /** qpdf's --split-pages value. */
  readonly qpdfGroup: number;
}

const JOBS: readonly Job[] = [
  { label: "every page", options: { split_mode: "every-page", pages_per_part: 1 }, qpdfGroup: 1 },
  {
    label: `${PART_PAGES}-page parts`,
    options: { split_mode: "every-n", pages_per_part: PART_PAGES },
    qpdfGroup: PART_PAGES,
  },
];

interface Measure {
  readonly ms: number;
  readonly bytes: number;
  readonly parts: number;
}

function ensureQpdf(): boolean {
  if (spawnSync("qpdf", ["--version"]).status === 0) return true;
  if (process.getuid?.() !== 0) {
    console.log("qpdf is not installed and this is not root: measuring ours only.");
    return false;
  }
  console.log("qpdf is not installed: installing it with apt-get.");
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  spawnSync("apt-get", ["install", "-y", "-qq", "qpdf"], { stdio: "inherit" });
  return spawnSync("qpdf", ["--version"]).status === 0;
}

/** Opens with MuPDF without a password and has pages: what a split accepts. */
function pagesOf(path: string): number {
  try {
    const doc = mupdf.Document.openDocument(readFileSync(path), "application/pdf");
    return doc.needsPassword() ? 0 : doc.countPages();
  } catch {
    return 0;
  }
}

async function repeat(run: () => Promise<Measure>): Promise<Measure> {
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  const last = runs.at(-1) as Measure;
  return { ...last, ms: median(runs.map((r) => r.ms)) };
}

/** Total size of the PDFs in our output (a ZIP of parts, or one PDF). */
function partsOf(bytes: Uint8Array, kind: string | undefined): { bytes: number; parts: number } {
  if (kind !== "zip") return { bytes: bytes.length, parts: 1 };
  const entries = Object.values(unzipSync(bytes));
  return { bytes: entries.reduce((sum, entry) => sum + entry.length, 0), parts: entries.length };
}

function engine(bytes: Uint8Array, name: string, job: Job): Promise<Measure> {
  return repeat(async () => {
    const started = performance.now();
    const output = await splitPdf([{ name, kind: "pdf", bytes }], job.options, () => {});
    const ms = performance.now() - started;
    return { ms, ...partsOf(output.bytes, output.kind) };
  });
}

function throughApi(client: BenchClient, bytes: Uint8Array, name: string, job: Job): Promise<Measure> {
  return repeat(async () => {
    const fields = { split_mode: job.options.split_mode, pages_per_part: String(job.options.pages_per_part) };
    const form = taskForm("file", [{ name, bytes, type: "application/pdf" }], fields);
    const run = await client.run(splitTool.endpoint.path, "pdf", form).catch((error: unknown) => {
      // Said, then retried once: one refused upload should not lose the whole table.
      console.log(`API run failed (${String(error).slice(0, 200)}), retrying once`);
      return client.run(splitTool.endpoint.path, "pdf", form);
    });
    const result = run.status.result;
    if (run.status.state !== "SUCCESS" || result === null)
      throw new Error(`API split failed: ${run.status.error}`);
    return { ms: run.totalMs, bytes: result.new_size, parts: Number(result.facts.parts) };
  });
}

function qpdf(path: string, job: Job, work: string): Promise<Measure> {
  return repeat(async () => {
    const out = mkdtempSync(join(work, "qpdf-"));
    const started = performance.now();
    const run = spawnSync("qpdf", [`--split-pages=${job.qpdfGroup}`, path, join(out, "part-%d.pdf")]);
    const ms = performance.now() - started;
    // qpdf exits 3 when it succeeded with warnings (damaged inputs it repaired).
    if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf exited with ${run.status}`);
    const files = readdirSync(out);
    const bytes = files.reduce((sum, file) => sum + statSync(join(out, file)).size, 0);
    rmSync(out, { recursive: true, force: true });
    return { ms, bytes, parts: files.length };
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

if (!existsSync(corpus)) {
  console.log(`No corpus at ${corpus}: nothing to measure.`);
  process.exit(0);
}
const hasQpdf = ensureQpdf();
const files = readdirSync(corpus)
  .filter((file) => file.endsWith(".pdf"))
  .map((file) => ({ file, pages: pagesOf(join(corpus, file)), size: statSync(join(corpus, file)).size }))
  .filter((entry) => entry.pages > 0)
  .sort((a, b) => b.pages - a.pages)
  .slice(0, FILES);
const work = mkdtempSync(join(tmpdir(), "split-bench-"));
const rows: string[] = [];
try {
  await withStack({ raiseLimits: true }, async (url) => {
    const client = new BenchClient(url);
    for (const { file, pages, size } of files) {
      const path = join(corpus, file);
      const bytes = new Uint8Array(readFileSync(path));
      for (const job of JOBS) {
        const ours = await engine(bytes, file, job);
        const api = await throughApi(client, bytes, file, job);
        const reference = hasQpdf ? await qpdf(path, job, work) : undefined;
        const ratio = (a: number, b: number | undefined) => (b ? `${(a / b).toFixed(2)}×` : "–");
        rows.push(
          [
            `${file} (${pages} p, ${mb(size)})`,
            job.label,
            `${ours.parts}`,
            seconds(ours.ms),
            seconds(api.ms),
            reference ? seconds(reference.ms) : "–",
            ratio(ours.ms, reference?.ms),
            ratio(api.ms, reference?.ms),
            mb(ours.bytes),
            reference ? mb(reference.bytes) : "–",
            ratio(ours.bytes, reference?.bytes),
            reference && reference.parts !== ours.parts ? `qpdf wrote ${reference.parts} parts` : "",
          ].join(" | "),
        );
        console.log(`measured ${file}, ${job.label}`);
      }
    }
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\n# Split benchmark (${process.version}, median of ${RUNS} runs)\n`);
console.log(
  "| file | job | parts | ours engine | ours API end to end | qpdf --split-pages | engine/qpdf | API/qpdf | ours size | qpdf size | size ours/qpdf | note |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row} |`);
