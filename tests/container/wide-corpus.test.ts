/**
 * A seeded slice of ../shared/corpus-wide (40 PDFs and 40 images nobody here made) through the API
 * of the real stack (converter + `wrangler dev`), judged as `npm run bench:sweep` judges the whole
 * corpus (bench/sweep.ts): each file runs one of the tools that take it, in turn, and every outcome
 * must be a valid output or a named error a reference agrees with. So a regression on real files
 * turns CI red. Skipped, with a note, when the wide corpus is not beside the clone.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BenchClient, withStack } from "../../bench/api-driver.ts";
import {
  corpusFiles,
  runJob,
  runPool,
  type SweepJob,
  seededSample,
  sweepJobs,
  WIDE_CORPUS,
} from "../../bench/sweep.ts";

const SEED = 24;
const PER_KIND = 40;
const present = existsSync(WIDE_CORPUS);
if (!present) console.log(`wide-corpus slice skipped: no ${WIDE_CORPUS}`);

describe.skipIf(!present)("a slice of the wide corpus through the API", () => {
  it("gives a valid output or an agreed named error for 40 PDFs and 40 images", async () => {
    const pdfs = seededSample(corpusFiles("pdf"), PER_KIND, SEED);
    const images = seededSample(corpusFiles("img"), PER_KIND, SEED);
    const { jobs, ...references } = await sweepJobs(pdfs, images);
    // One job per file, the tools taken in turn, so every tool sees several files.
    const byFile = new Map<string, SweepJob[]>();
    for (const job of jobs) byFile.set(job.file, [...(byFile.get(job.file) ?? []), job]);
    const slice = [...byFile.values()].map((own, i) => own[i % own.length] as SweepJob);
    expect(slice.length).toBeGreaterThan(60);
    const results = await withStack({ raiseLimits: true }, (url) => {
      const client = new BenchClient(url);
      return runPool(slice, 2, (job) => runJob(client, job, 120_000, references));
    });
    const defects = results
      .filter((r) => r.verdict === "defect")
      .map((r) => `${r.tool} ${r.file}: ${r.outcome} — ${r.detail}`);
    expect(defects).toEqual([]);
    const tools = new Set(results.map((r) => r.tool));
    expect(tools.size).toBeGreaterThanOrEqual(8);
    // The page tools, protect and unlock are among the PDF tools taken in turn.
    for (const tool of ["organize-pdf", "page-numbers", "watermark", "protect", "unlock"])
      expect(tools).toContain(tool);
  }, 480_000);
});
