/**
 * Page tools benchmark: Organize (every page in reverse, the odd source pages turned), Add page
 * numbers ("Page n of N", every page) and Add watermark (Hindi and Latin text, diagonal, tiled; and
 * a 600 × 300 PNG with transparency, centred) on the corpus PDFs of about 300 pages, engines alone
 * in this process, beside `qpdf` doing the same reorder and turns. Median of three runs, wall and CPU
 * time (this process's, and qpdf's as a waited-for child), with the load average. Run:
 * `npm run bench:page-tools` (needs ../shared/corpus and qpdf).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { halfTransparentPng } from "../tests/container/fixtures.ts";
import { organizePdf } from "../tools/organize-pdf/organize.ts";
import { addPageNumbers } from "../tools/page-numbers/page-numbers.ts";
import numbersTool from "../tools/page-numbers/tool.ts";
import watermarkTool from "../tools/watermark/tool.ts";
import { addWatermark } from "../tools/watermark/watermark.ts";
import { median } from "./api-driver.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const RUNS = 3;
const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));
const FILES = ["deb_gnuplot.pdf", "pdfjs_freeculture.pdf"];

/** CPU time in ms of this process and of the children it has waited for (qpdf), from /proc. */
function cpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime, stime, cutime, cstime: fields 14–17 of stat(5), in clock ticks (100 a second).
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
  return ticks * 10;
}

/** Median wall time and median CPU time (ms) of RUNS runs: CPU time is what the load cannot stretch. */
async function timed(run: () => Promise<unknown> | unknown): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [started, cpu] = [performance.now(), cpuMs()];
    await run();
    walls.push(performance.now() - started);
    cpus.push(cpuMs() - cpu);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

async function main() {
  const work = mkdtempSync(join(tmpdir(), "page-tools-"));
  console.log(`load average ${load()} (1, 5, 15 min) at the start`);
  try {
    for (const file of FILES) {
      const path = join(corpus, file);
      if (!existsSync(path)) {
        console.log(`${file}: not in ../shared/corpus, skipped`);
        continue;
      }
      const bytes = new Uint8Array(readFileSync(path));
      const pages = mupdf.Document.openDocument(bytes, "application/pdf").countPages();
      const input = [{ name: file, kind: "pdf" as const, bytes }];
      const order = Array.from({ length: pages }, (_, i) => pages - i)
        .map((page) => (page % 2 === 1 ? `${page}@90` : `${page}`))
        .join(",");
      const organize = await timed(() => organizePdf(input, { order }, () => {}));
      const qpdf = await timed(() => {
        const run = spawnSync("qpdf", [
          path,
          "--pages",
          ".",
          "z-1",
          "--",
          // Output page k holds source page pages - k + 1: odd sources sit where k has pages' parity.
          `--rotate=+90:1-z:${pages % 2 === 0 ? "even" : "odd"}`,
          join(work, "out.pdf"),
        ]);
        if (run.status !== 0 && run.status !== 3) throw new Error(`qpdf exited with ${run.status}`);
      });
      const numbers = numbersTool.options.parse({ format: "page-of-total" });
      const numbering = await timed(() => addPageNumbers(input, numbers, () => {}));
      const mark = watermarkTool.options.parse({ text: "गोपनीय DRAFT", position: "tiled" });
      const watermarking = await timed(() => addWatermark(input, mark, () => {}));
      const logo = {
        image: { name: "logo.png", kind: "png" as const, bytes: await halfTransparentPng(600, 300) },
      };
      const imageMark = watermarkTool.options.parse({ rotation: "0", opacity: "0.5" });
      const imageWatermarking = await timed(() => addWatermark(input, imageMark, () => {}, logo));
      const ms = (value: { wall: number; cpu: number }) =>
        `${Math.round(value.wall)} ms (CPU ${Math.round(value.cpu)} ms)`;
      console.log(
        `${file} (${pages} pages): organize ${ms(organize)} (qpdf ${ms(qpdf)}), page numbers ${ms(numbering)}, text watermark ${ms(watermarking)}, image watermark ${ms(imageWatermarking)}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  console.log(`load average ${load()} at the end`);
}

await main();
