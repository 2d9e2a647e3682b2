/**
 * Load through the API against the real local stack, with the per-client rate limits raised for the
 * run (a temporary wrangler config; wrangler.toml is untouched): 1, 4, 16, 32 and 64 concurrent
 * tasks of two kinds that both run in the converter, a two-page merge and a PNG → JPG over the edge
 * budget. Per level: tasks that succeeded, jobs/s (tasks / wall time), p50/p95 upload → SUCCESS and
 * how many tasks were seen QUEUED (the converter was busy and the task waited instead of failing).
 * Capacity reference: sequential single-job time, × the converter's capacity from /api/health.
 * Goals: every task succeeds at 64; throughput at 32 within 10 % of that capacity.
 * Run: `npx node bench/load.ts`.
 */
import { HEALTH_PATH, healthStatusSchema } from "../contract/index.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import {
  BenchClient,
  gradientPng,
  median,
  mergeTwoPdfs,
  percentile,
  pngToJpg,
  type TaskRun,
  withStack,
} from "./api-driver.ts";

const LEVELS = [1, 4, 16, 32, 64];
const SINGLE_RUNS = 7;

interface Kind {
  readonly label: string;
  readonly run: (client: BenchClient) => Promise<TaskRun>;
}

const pdfs = [textPdf("A", 1), textPdf("B", 1)];
// 1800 × 1500 = 2.7 MP, over png-to-jpg's edge budget (2.5 MP): the converter runs it.
const bigPng = await gradientPng(1800, 1500);

const kinds: Kind[] = [
  {
    label: "merge 2 × 1 page",
    run: (client) => mergeTwoPdfs(client, pdfs),
  },
  {
    label: "png → jpg 1800 × 1500 (converter)",
    run: (client) => pngToJpg(client, bigPng),
  },
];

const ms = (value: number) => `${value.toFixed(0)} ms`;

async function level(kind: Kind, clients: readonly BenchClient[], n: number) {
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => kind.run(clients[i % clients.length] as BenchClient)),
  );
  const wallS = (performance.now() - started) / 1000;
  const runs = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
  const ok = runs.filter((run) => run.status.state === "SUCCESS");
  const failures = [
    ...runs.filter((run) => run.status.state !== "SUCCESS").map((run) => run.status.error_code ?? "?"),
    ...outcomes.flatMap((o) => (o.status === "rejected" ? [String(o.reason).slice(0, 60)] : [])),
  ];
  const queued = runs.filter((run) => run.states.some(([state]) => state === "QUEUED")).length;
  const latencies = ok.map((run) => run.totalMs);
  return { ok: ok.length, jobsPerS: ok.length / wallS, latencies, queued, failures };
}

await withStack({ raiseLimits: true }, async (url) => {
  const health = healthStatusSchema.parse(await (await fetch(new URL(HEALTH_PATH, url))).json());
  const capacity = health.converter.capacity ?? 1;
  const clients = Array.from({ length: 8 }, () => new BenchClient(url));
  console.log(`# Load through the API (converter capacity ${capacity} jobs at once)`);
  for (const kind of kinds) {
    const singles: number[] = [];
    for (let i = 0; i < SINGLE_RUNS + 2; i++)
      singles.push((await kind.run(clients[0] as BenchClient)).totalMs);
    const single = median(singles.slice(2));
    const ceiling = (capacity * 1000) / single;
    console.log(
      `\n## ${kind.label}: single job ${ms(single)} → capacity × cores ≈ ${ceiling.toFixed(1)} jobs/s`,
    );
    console.log("| concurrent | succeeded | jobs/s | of capacity | p50 | p95 | seen QUEUED | failures |");
    console.log("|---|---|---|---|---|---|---|---|");
    for (const n of LEVELS) {
      const result = await level(kind, clients, n);
      const share = `${((result.jobsPerS / ceiling) * 100).toFixed(0)} %`;
      const failures = result.failures.length === 0 ? "" : [...new Set(result.failures)].join(", ");
      console.log(
        `| ${n} | ${result.ok}/${n} | ${result.jobsPerS.toFixed(1)} | ${share} | ${ms(percentile(result.latencies, 0.5))} | ${ms(percentile(result.latencies, 0.95))} | ${result.queued} | ${failures} |`,
      );
    }
  }
});
