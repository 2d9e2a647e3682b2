/**
 * Page tools benchmark: Organize (every page in reverse, the odd source pages turned), Add page
 * numbers ("Page n of N", every page) and Add watermark (Hindi and Latin text, diagonal, tiled; and
 * a 600 × 300 PNG with transparency, centred) on the corpus PDFs of about 300 pages, engines alone
 * in this process, beside `qpdf` doing the same reorder and turns. Median of three runs. Run:
 * `npm run bench:page-tools` (needs ../shared/corpus and qpdf).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "page-tools-"));
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
      const ms = (value: number) => `${Math.round(value)} ms`;
      console.log(
        `${file} (${pages} pages): organize ${ms(organize)} (qpdf ${ms(qpdf)}), page numbers ${ms(numbering)}, text watermark ${ms(watermarking)}, image watermark ${ms(imageWatermarking)}`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
