/**
 * Merge benchmark: our engine (engines/pdf/merge.ts, MuPDF.js) against qpdf on the corpus's
 * largest PDFs (../shared/corpus/pdf), each run as its own process, 3 runs, median time.
 * Peak memory is the process's VmHWM, sampled from /proc every 5 ms until it exits.
 * Run: `npx node bench/merge.ts` (qpdf from apt when installed; said so when not).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";

// MuPDF's warnings about the damaged corpus files are expected: keep the report readable.
mupdf.setLog({ warning: () => {}, error: () => {} });

const RUNS = 3;
const FILES_PER_SET = 5;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));
const runner = fileURLToPath(new URL("./merge-run.ts", import.meta.url));

interface Measure {
  readonly ms: number;
  readonly peakMb: number;
  readonly bytes: number;
  readonly pages: number;
}

/** Runs a command, sampling its peak resident memory, and times it from spawn to exit. */
function measured(command: string, args: string[]): Promise<{ ms: number; peakMb: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let peakKb = 0;
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const sample = () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        peakKb = Math.max(peakKb, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      } catch {
        // exited between two samples
      }
    };
    const sampler = setInterval(sample, 5);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      // qpdf exits 3 when it succeeded with warnings (damaged inputs it repaired).
      if (code !== 0 && code !== 3) reject(new Error(`${command} exited with ${code}`));
      else resolve({ ms, peakMb: peakKb / 1024, stdout });
    });
  });
}

function pageCount(path: string): number {
  return new mupdf.PDFDocument(readFileSync(path)).countPages();
}

/** Opens with MuPDF without needing a password and has pages: what both tools can merge. */
function mergeable(path: string): boolean {
  try {
    const doc = mupdf.Document.openDocument(readFileSync(path), "application/pdf");
    return !doc.needsPassword() && doc.countPages() > 0;
  } catch {
    return false;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function repeat(run: () => Promise<Measure>): Promise<Measure & { engineMs?: number }> {
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await run());
  const last = runs.at(-1) as Measure;
  return { ...last, ms: median(runs.map((r) => r.ms)), peakMb: Math.max(...runs.map((r) => r.peakMb)) };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

async function benchmark(title: string, files: string[], qpdf: boolean, work: string): Promise<void> {
  const paths = files.map((file) => join(corpus, file));
  const inputBytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  const expectedPages = paths.reduce((sum, path) => sum + pageCount(path), 0);
  console.log(`\n## ${title}: ${files.length} files, ${expectedPages} pages, ${mb(inputBytes)} MB`);
  console.log(files.map((file) => `   ${file}`).join("\n"));
  const rows: [string, Measure, string][] = [];
  const engineTimes: number[] = [];
  const ours = join(work, "ours.pdf");
  const engine = await repeat(async () => {
    const result = await measured(process.execPath, [
      "--disable-warning=ExperimentalWarning",
      runner,
      ours,
      ...paths,
    ]);
    engineTimes.push(JSON.parse(result.stdout).engineMs);
    return { ms: result.ms, peakMb: result.peakMb, bytes: statSync(ours).size, pages: pageCount(ours) };
  });
  rows.push([
    "ours (MuPDF.js + links/bookmarks/forms)",
    engine,
    `engine ${median(engineTimes).toFixed(0)} ms`,
  ]);
  if (qpdf) {
    for (const [label, extra] of [
      ["qpdf --empty --pages", []],
      ["qpdf … --object-streams=generate", ["--object-streams=generate"]],
    ] as const) {
      const out = join(work, "qpdf.pdf");
      const result = await repeat(async () => {
        const run = await measured("qpdf", [...extra, "--empty", "--pages", ...paths, "--", out]);
        return { ms: run.ms, peakMb: run.peakMb, bytes: statSync(out).size, pages: pageCount(out) };
      });
      rows.push([label, result, ""]);
    }
  }
  console.log("| tool | time (median of 3) | peak RSS | output | out/in | pages | note |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [label, m, note] of rows) {
    const pagesOk = m.pages === expectedPages ? `${m.pages}` : `${m.pages} (expected ${expectedPages})`;
    console.log(
      `| ${label} | ${(m.ms / 1000).toFixed(2)} s | ${m.peakMb.toFixed(0)} MB | ${mb(m.bytes)} MB | ${(m.bytes / inputBytes).toFixed(3)} | ${pagesOk} | ${note} |`,
    );
  }
  const reference = rows[1]?.[1];
  if (reference) {
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    console.log(
      `ours / qpdf: time ${ratio(engine.ms, reference.ms)}×, peak RSS ${ratio(engine.peakMb, reference.peakMb)}×, size ${ratio(engine.bytes, reference.bytes)}×`,
    );
  }
}

if (!existsSync(corpus)) {
  console.log(`No corpus at ${corpus}: nothing to measure.`);
  process.exit(0);
}
const qpdf = spawnSync("qpdf", ["--version"]).status === 0;
if (!qpdf) console.log("qpdf is not installed (apt-get install -y qpdf): measuring our engine only.");
const candidates = readdirSync(corpus)
  .filter((file) => file.endsWith(".pdf") && mergeable(join(corpus, file)))
  .map((file) => ({ file, bytes: statSync(join(corpus, file)).size, pages: pageCount(join(corpus, file)) }));
const largest = (key: "bytes" | "pages") =>
  [...candidates]
    .sort((a, b) => b[key] - a[key])
    .slice(0, FILES_PER_SET)
    .map((c) => c.file);
const work = mkdtempSync(join(tmpdir(), "merge-bench-"));
try {
  console.log(`# Merge benchmark (${process.version}, ${RUNS} runs each)`);
  await benchmark("Largest files by size", largest("bytes"), qpdf, work);
  await benchmark("Largest files by pages", largest("pages"), qpdf, work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
