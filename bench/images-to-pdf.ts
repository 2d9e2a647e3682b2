/**
 * Images to PDF benchmark: our engine (engines/pdf/images-to-pdf.ts) against img2pdf on every image
 * of ../shared/corpus/img, one image per PDF, then all of them in one PDF; same page set-up on both
 * sides (A4 portrait, 36 pt margin, image fitted). Time is the median of 3 runs: ours in this
 * process once MuPDF and sharp are loaded (as in the running converter), img2pdf as the process a
 * user runs, with its interpreter start-up (`img2pdf --version`) shown apart. Inputs img2pdf refuses
 * are listed with its reason.
 * Run: `npm run bench:images-to-pdf` (installs img2pdf from apt when missing, and says so).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { imagesToPdf } from "../engines/pdf/images-to-pdf.ts";
import type { EngineInput } from "../engines/types.ts";

const RUNS = 3;
const corpus = fileURLToPath(new URL("../../shared/corpus/img/", import.meta.url));
/** img2pdf with our "small" margin (36 pt) on A4, scaled to fit up or down. */
const IMG2PDF_ARGS = ["--pagesize", "A4", "--border", "36pt", "--fit", "into"];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function ensureImg2pdf(): boolean {
  if (spawnSync("img2pdf", ["--version"]).status === 0) return true;
  console.log("img2pdf is missing: installing it with apt-get (Debian package img2pdf).");
  const install = spawnSync("apt-get", ["install", "-y", "-qq", "img2pdf"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return install.status === 0 && spawnSync("img2pdf", ["--version"]).status === 0;
}

function pageCount(bytes: Uint8Array): number {
  return mupdf.Document.openDocument(bytes, "application/pdf").countPages();
}

interface Result {
  readonly ms: number;
  readonly bytes: number;
  readonly pages: number;
}

async function ours(inputs: EngineInput[]): Promise<Result> {
  const times: number[] = [];
  let output: Uint8Array = new Uint8Array();
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    output = (await imagesToPdf(inputs, { margin: "small", orientation: "portrait" }, () => {})).bytes;
    times.push(performance.now() - started);
  }
  return { ms: median(times), bytes: output.length, pages: pageCount(output) };
}

/** img2pdf's result, or the reason it gave for refusing. */
function img2pdf(paths: string[], work: string): Result | { refused: string } {
  const out = join(work, "img2pdf.pdf");
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rmSync(out, { force: true });
    const started = performance.now();
    const run = spawnSync("img2pdf", [...IMG2PDF_ARGS, "-o", out, ...paths], { encoding: "utf8" });
    times.push(performance.now() - started);
    if (run.status !== 0) {
      const lines = run.stderr.trim().split("\n");
      return { refused: (lines.at(-1) ?? `exit ${run.status}`).replace(/^.*?(Error|error): /, "") };
    }
  }
  const bytes = readFileSync(out);
  return { ms: median(times), bytes: bytes.length, pages: pageCount(bytes) };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

if (!existsSync(corpus)) {
  console.log(`No corpus at ${corpus}: nothing to measure.`);
  process.exit(0);
}
if (!ensureImg2pdf()) {
  console.log("img2pdf could not be installed: nothing to compare with.");
  process.exit(1);
}
const version = spawnSync("img2pdf", ["--version"], { encoding: "utf8" }).stdout.trim();
const startups: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  spawnSync("img2pdf", ["--version"]);
  startups.push(performance.now() - started);
}
const startup = median(startups);
const files = readdirSync(corpus)
  .filter((file) => /\.(jpe?g|png|webp|gif)$/i.test(file))
  .sort();
const inputs: EngineInput[] = files.map((file) => ({
  name: file,
  kind: "png",
  bytes: new Uint8Array(readFileSync(join(corpus, file))),
}));
// Load MuPDF's WASM and sharp once, as the converter has them loaded.
await ours(inputs.slice(0, 1));

const work = mkdtempSync(join(tmpdir(), "bench-images-to-pdf-"));
console.log(`# Images to PDF: ours vs ${version}, ${files.length} images from ${corpus}`);
console.log(
  `A4 portrait, 36 pt margin, fit; median of ${RUNS} runs; img2pdf start-up ${startup.toFixed(0)} ms.\n`,
);
console.log(
  "| image | input | ours time | ours size | img2pdf time | img2pdf size | time ours/img2pdf | size ours/img2pdf |",
);
console.log("|---|---|---|---|---|---|---|---|");
const refusals: string[] = [];
const both = { ours: { ms: 0, bytes: 0 }, theirs: { ms: 0, bytes: 0 }, input: 0 };
for (const [index, file] of files.entries()) {
  const input = inputs[index] as EngineInput;
  const mine = await ours([input]);
  const theirs = img2pdf([join(corpus, file)], work);
  const size = kb(input.bytes.length);
  const ourCells = `${mine.ms.toFixed(0)} ms | ${kb(mine.bytes)}`;
  if ("refused" in theirs) {
    refusals.push(`${file}: ${theirs.refused}`);
    console.log(`| ${file} | ${size} | ${ourCells} | refused | – | – | – |`);
    continue;
  }
  both.ours.ms += mine.ms;
  both.ours.bytes += mine.bytes;
  both.theirs.ms += theirs.ms;
  both.theirs.bytes += theirs.bytes;
  both.input += input.bytes.length;
  console.log(
    `| ${file} | ${size} | ${ourCells} | ${theirs.ms.toFixed(0)} ms | ${kb(theirs.bytes)} | ${ratio(mine.ms, theirs.ms)} | ${ratio(mine.bytes, theirs.bytes)} |`,
  );
}
console.log(
  `| **sum over images both convert** | ${kb(both.input)} | ${both.ours.ms.toFixed(0)} ms | ${kb(both.ours.bytes)} | ${both.theirs.ms.toFixed(0)} ms | ${kb(both.theirs.bytes)} | ${ratio(both.ours.ms, both.theirs.ms)} | ${ratio(both.ours.bytes, both.theirs.bytes)} |`,
);

// One PDF of every image img2pdf accepts (a typical multi-image job), and of all of them for ours.
const accepted = files.filter((file) => !refusals.some((line) => line.startsWith(`${file}:`)));
const acceptedInputs = inputs.filter((input) => accepted.includes(input.name));
const together = await ours(acceptedInputs);
const theirsTogether = img2pdf(
  accepted.map((file) => join(corpus, file)),
  work,
);
const all = await ours(inputs);
console.log(
  "\n| one PDF of | pages | ours time | ours size | img2pdf time | img2pdf size | time ratio | size ratio |",
);
console.log("|---|---|---|---|---|---|---|---|");
if ("refused" in theirsTogether) {
  console.log(
    `| ${accepted.length} images img2pdf accepts | ${together.pages} | ${together.ms.toFixed(0)} ms | ${kb(together.bytes)} | refused: ${theirsTogether.refused} | – | – | – |`,
  );
} else {
  console.log(
    `| ${accepted.length} images img2pdf accepts | ${together.pages} | ${together.ms.toFixed(0)} ms | ${kb(together.bytes)} | ${theirsTogether.ms.toFixed(0)} ms | ${kb(theirsTogether.bytes)} | ${ratio(together.ms, theirsTogether.ms)} | ${ratio(together.bytes, theirsTogether.bytes)} |`,
  );
  console.log(
    `| (img2pdf without its ${startup.toFixed(0)} ms start-up) | | | | ${(theirsTogether.ms - startup).toFixed(0)} ms | | ${ratio(together.ms, theirsTogether.ms - startup)} | |`,
  );
}
console.log(
  `| all ${files.length} images (ours only) | ${all.pages} | ${all.ms.toFixed(0)} ms | ${kb(all.bytes)} | – | – | – | – |`,
);
console.log(`\nimg2pdf refused ${refusals.length} of ${files.length} inputs:`);
for (const line of refusals) console.log(`- ${line}`);
rmSync(work, { recursive: true, force: true });
