/**
 * Latency as a user sees it: from the start of the upload to the page seeing SUCCESS, through the
 * API against the real local stack (converter + `wrangler dev`), for a two-page merge (converter)
 * and a small PNG → JPG (edge engine). Prints medians of RUNS runs after WARMUP, and where the time
 * goes (upload answered, each state first seen). Goals: merge ≤ 500 ms, PNG → JPG ≤ 300 ms.
 * Run: `npx node bench/latency.ts`.
 */
import { textPdf } from "../tests/container/fixtures.ts";
import {
  BenchClient,
  gradientPng,
  median,
  mergeTwoPdfs,
  pngToJpg,
  type TaskRun,
  withStack,
} from "./api-driver.ts";

const RUNS = 15;
const WARMUP = 3;

interface Case {
  readonly label: string;
  readonly goalMs: number;
  readonly run: (client: BenchClient) => Promise<TaskRun>;
}

const pdfs = [textPdf("A", 1), textPdf("B", 1)];
const png = await gradientPng(64, 48);

const cases: Case[] = [
  {
    label: "merge 2 × 1 page",
    goalMs: 500,
    run: (client) => mergeTwoPdfs(client, pdfs),
  },
  {
    label: "png → jpg 64 × 48",
    goalMs: 300,
    run: (client) => pngToJpg(client, png),
  },
];

const ms = (value: number) => `${value.toFixed(0)} ms`;

await withStack({ raiseLimits: false }, async (url) => {
  const client = new BenchClient(url);
  console.log(`# Upload → SUCCESS seen by the client (median of ${RUNS} runs)`);
  console.log("| task | total | upload answered (202) | first STARTED seen | goal |");
  console.log("|---|---|---|---|---|");
  for (const task of cases) {
    for (let i = 0; i < WARMUP; i++) await task.run(client);
    const runs: TaskRun[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await task.run(client));
    const failed = runs.filter((run) => run.status.state !== "SUCCESS");
    if (failed.length > 0) throw new Error(`${task.label}: ${failed.length} runs failed`);
    const total = median(runs.map((run) => run.totalMs));
    const started = median(
      runs.map((run) => run.states.find(([state]) => state !== "PENDING")?.[1] ?? run.totalMs),
    );
    console.log(
      `| ${task.label} | ${ms(total)} | ${ms(median(runs.map((run) => run.startMs)))} | ${ms(started)} | ≤ ${task.goalMs} ms ${total <= task.goalMs ? "met" : "missed"} |`,
    );
  }
});
