/**
 * PDF to JPG benchmark: pages per second at 150 dpi of our engine alone (engines/pdf/pdf-to-jpg.ts,
 * in this process, render threads warm) and of the whole product through the API (upload, queue,
 * converter, result download; the real local stack as bench/latency.ts starts it), against
 * `pdftoppm -jpeg -r 150` on the same pages of the same files, in the same run. Files: the
 * corpus's PDFs (../shared/corpus/pdf) that open without a password, their first MAX_PAGES pages;
 * without a corpus, PDFs built in code. Median of RUNS runs per file and tool; the totals are all
 * pages over the sum of the medians; the last column compares the JPEG bytes written (both at
 * libjpeg quality 75, pdftoppm's default). Goal: end to end through the API ≥ 1.0× pdftoppm.
 * Run: `npm run bench:pdf-to-jpg` (installs poppler-utils with apt when pdftoppm is missing).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unzipSync } from "fflate";
import * as mupdf from "mupdf";
import { TOOLS, type ToolId } from "../contract/index.ts";
import { pdfToJpg } from "../engines/pdf/pdf-to-jpg.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import tool from "../tools/pdf-to-jpg/tool.ts";
import { BenchClient, median, taskForm, withStack } from "./api-driver.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const RUNS = 3;
const MAX_PAGES = 40;
const DPI = 150;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));
const toolId: ToolId = tool.id;

interface Input {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly pages: number;
}

/** Pages MuPDF opens without a password (0 for files it cannot use). */
function usablePages(bytes: Uint8Array): number {
  try {
    const doc = mupdf.Document.openDocument(bytes, "application/pdf");
    const pages = doc.needsPassword() ? 0 : doc.countPages();
    doc.destroy();
    return pages;
  } catch {
    return 0;
  }
}

function inputs(): Input[] {
  if (!existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: measuring PDFs built in code.`);
    return [1, 10, 40].map((pages) => ({ name: `text-${pages}.pdf`, bytes: textPdf("Bench", pages), pages }));
  }
  return readdirSync(corpus)
    .filter((file) => file.endsWith(".pdf"))
    .sort()
    .flatMap((file) => {
      const bytes = new Uint8Array(readFileSync(join(corpus, file)));
      const pages = Math.min(MAX_PAGES, usablePages(bytes));
      return pages > 0 ? [{ name: file, bytes, pages }] : [];
    });
}

function ensurePdftoppm(): void {
  if (spawnSync("pdftoppm", ["-v"]).error === undefined) return;
  console.log("pdftoppm is missing: installing poppler-utils with apt-get.");
  spawnSync("apt-get", ["install", "-y", "poppler-utils"], { stdio: "inherit" });
}

/**
 * Wall time of pdftoppm on the input's first pages, checked by the number of files it wrote; null
 * when it fails (a damaged file only MuPDF repairs).
 */
function timePdftoppm(input: Input, work: string): number | null {
  const path = join(work, "in.pdf");
  const out = join(work, "pdftoppm");
  writeFileSync(path, input.bytes);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  const args = ["-jpeg", "-r", String(DPI), "-f", "1", "-l", String(input.pages), path, join(out, "p")];
  const started = performance.now();
  const run = spawnSync("pdftoppm", args);
  const ms = performance.now() - started;
  const made = readdirSync(out);
  pdftoppmBytes.set(
    input.name,
    made.reduce((sum, file) => sum + statSync(join(out, file)).size, 0),
  );
  return run.status === 0 && made.length === input.pages ? ms : null;
}

/** Bytes of the JPEGs each tool wrote for a file (ours: the entries of the ZIP, or the one JPG). */
const pdftoppmBytes = new Map<string, number>();
const engineBytes = new Map<string, number>();

const ranges = (input: Input) => `1-${input.pages}`;

/** Wall time of our engine in this process (MuPDF loaded, render threads kept between runs). */
async function timeEngine(input: Input): Promise<number> {
  const options = { conversion_mode: "convert-pages", page_ranges: ranges(input), dpi: DPI } as const;
  const started = performance.now();
  const output = await pdfToJpg([{ name: input.name, kind: "pdf", bytes: input.bytes }], options, () => {});
  const ms = performance.now() - started;
  if (output.facts.pages_rendered !== input.pages)
    throw new Error(`engine rendered ${output.facts.pages_rendered}`);
  const jpegs = output.kind === "zip" ? Object.values(unzipSync(output.bytes)) : [output.bytes];
  engineBytes.set(
    input.name,
    jpegs.reduce((sum, jpeg) => sum + jpeg.byteLength, 0),
  );
  return ms;
}

/** Upload to SUCCESS seen by the client, plus the download of the result. */
async function timeApi(client: BenchClient, input: Input): Promise<number> {
  const fields = {
    output_format: "jpg",
    conversion_mode: "convert-pages",
    page_ranges: ranges(input),
    dpi: `${DPI}`,
  };
  const form = taskForm("file", [{ name: input.name, bytes: input.bytes, type: "application/pdf" }], fields);
  const started = performance.now();
  const run = await client.run(TOOLS[toolId].endpoint.path, "pdf", form);
  if (run.status.state !== "SUCCESS") throw new Error(`${input.name}: ${JSON.stringify(run.status.error)}`);
  const download = await fetch(new URL(run.status.result?.download_url ?? "", client.base));
  await download.arrayBuffer();
  return performance.now() - started;
}

async function medianOf(measure: () => number | Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await measure());
  return median(times);
}

interface Row {
  readonly input: Input;
  readonly pdftoppm: number;
  readonly engine: number;
  readonly api: number;
}

const perSecond = (pages: number, ms: number) => (pages / (ms / 1000)).toFixed(1);
const ratio = (ours: number, reference: number) => `${(reference / ours).toFixed(2)}×`;

function printTable(rows: readonly Row[]): void {
  console.log(
    "| file | pages | pdftoppm p/s | engine p/s | engine ÷ pdftoppm | API end to end p/s | API ÷ pdftoppm | JPEG bytes ours ÷ pdftoppm |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const bytesOf = (input: Input) => ({
    ours: engineBytes.get(input.name) ?? Number.NaN,
    reference: pdftoppmBytes.get(input.name) ?? Number.NaN,
  });
  for (const { input, pdftoppm, engine, api } of rows) {
    const bytes = bytesOf(input);
    console.log(
      `| ${input.name} | ${input.pages} | ${perSecond(input.pages, pdftoppm)} | ${perSecond(input.pages, engine)} | ${ratio(engine, pdftoppm)} | ${perSecond(input.pages, api)} | ${ratio(api, pdftoppm)} | ${(bytes.ours / bytes.reference).toFixed(2)} |`,
    );
  }
  const sum = (pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const pages = sum((row) => row.input.pages);
  const [pdftoppm, engine, api] = [sum((r) => r.pdftoppm), sum((r) => r.engine), sum((r) => r.api)];
  const [ours, reference] = [sum((r) => bytesOf(r.input).ours), sum((r) => bytesOf(r.input).reference)];
  console.log(
    `| **all** | ${pages} | ${perSecond(pages, pdftoppm)} | ${perSecond(pages, engine)} | ${ratio(engine, pdftoppm)} | ${perSecond(pages, api)} | ${ratio(api, pdftoppm)} | ${(ours / reference).toFixed(2)} |`,
  );
  console.log(`\nGoal: API end to end ≥ 1.0× pdftoppm; measured ${ratio(api, pdftoppm)}.`);
}

ensurePdftoppm();
const files = inputs();
const work = mkdtempSync(join(tmpdir(), "pdf-to-jpg-bench-"));
console.log(
  `# PDF to JPG at ${DPI} dpi (${process.version}, ${availableParallelism()} cores, median of ${RUNS} runs)`,
);
try {
  const measured: Omit<Row, "api">[] = [];
  for (const input of files) {
    if (timePdftoppm(input, work) === null) {
      console.log(`${input.name}: pdftoppm cannot convert it; left out of the comparison.`);
      continue;
    }
    const pdftoppm = await medianOf(() => timePdftoppm(input, work) ?? Number.NaN);
    await timeEngine(input);
    const engine = await medianOf(() => timeEngine(input));
    measured.push({ input, pdftoppm, engine });
    process.stderr.write(`${input.name}: ${input.pages} pages measured\n`);
  }
  const rows = await withStack({ raiseLimits: true }, async (url) => {
    const client = new BenchClient(url);
    const withApi: Row[] = [];
    for (const row of measured) {
      await timeApi(client, row.input);
      withApi.push({ ...row, api: await medianOf(() => timeApi(client, row.input)) });
    }
    return withApi;
  });
  printTable(rows);
} finally {
  rmSync(work, { recursive: true, force: true });
}
// The engine's render threads are idle and unreferenced; MuPDF's WASM keeps nothing else alive.
process.exit(0);
