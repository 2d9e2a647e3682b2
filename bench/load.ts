/**
 * Load through the API against the real local stack, with the per-client rate limits raised for the
 * run (a temporary wrangler config; wrangler.toml is untouched).
 *
 * Three rounds; each starts 64 tasks at once of each kind in turn: PNG → JPG of 1 MP at the edge,
 * a two-page merge in the converter and a merge of a 3.4 MB PDF (64 concurrent uploads). Per burst:
 * tasks that succeeded, answers that were not JSON (counted as failures: a client cannot read
 * them), other failures by code, jobs/s, p50/p95 upload → SUCCESS, and p50/p95/max of an unrelated
 * `GET /api/health` sent over and over during the burst. After each round, the Worker runtime's
 * resident memory once idle (10 s without requests), with tcmalloc's account of its native heap
 * (bench/tcmalloc.ts, when gdb is installed), and both again after a collection in the Worker's
 * isolate: the difference is dead ArrayBuffers that an idle isolate never collects by itself.
 * Goals: 0 failures and 0 non-JSON answers at 64; health p95 ≤ 500 ms during every burst; idle
 * Worker memory after round 3 within 64 MB of the figure after round 1.
 *
 * `-- --kinds edge,converter,upload` runs only those kinds (to time each apart), `-- --rounds N`
 * another number of rounds.
 * `-- --profile` records a V8 CPU profile of the Worker's isolate during each burst and prints where
 * its thread spent the time and its longest stretches of uninterrupted JavaScript (bench/cpu-profile.ts).
 * `-- --levels` also prints the older table: 1, 4, 16, 32 and 64 concurrent merges and converter
 * PNG → JPG (2.7 MP, over the edge budget) against the converter's capacity.
 * Run: `npm run bench:load`.
 */
import { HEALTH_PATH, healthStatusSchema } from "../contract/index.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import {
  BenchClient,
  benchStateRoot,
  gradientPng,
  median,
  mergeTwoPdfs,
  percentile,
  pngToJpg,
  withStack,
} from "./api-driver.ts";
import {
  BURST_HEADER,
  type BurstKind,
  burst,
  burstKinds,
  burstRow,
  IDLE_HEADER,
  type IdleMemory,
  idleMemory,
  idleRow,
} from "./bursts.ts";
import { profileLines, summarizeProfile } from "./cpu-profile.ts";
import { InspectorSession } from "./inspector.ts";
import { stackProcesses } from "./stack-processes.ts";

const BURST = 64;

/** The value after `--name` on the command line. */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}
const ROUNDS = Number(argument("rounds") ?? 3);
const KINDS = (argument("kinds") ?? "edge,converter,upload").split(",") as (
  | "edge"
  | "converter"
  | "upload"
)[];
const HEALTH_GOAL_MS = 500;
const IDLE_GROWTH_GOAL_MB = 64;
const LEVELS = [1, 4, 16, 32, 64];
const SINGLE_RUNS = 7;

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** The older capacity table (`--levels`). */
async function levels(url: string, clients: readonly BenchClient[]): Promise<void> {
  const health = healthStatusSchema.parse(await (await fetch(new URL(HEALTH_PATH, url))).json());
  const capacity = health.converter.capacity ?? 1;
  const pdfs = [textPdf("A", 1), textPdf("B", 1)];
  // 1800 × 1500 = 2.7 MP, over png-to-jpg's edge budget (2.5 MP): the converter runs it.
  const bigPng = await gradientPng(1800, 1500);
  const kinds: BurstKind[] = [
    { label: "merge 2 × 1 page", run: (client) => mergeTwoPdfs(client, pdfs) },
    { label: "png → jpg 1800 × 1500 (converter)", run: (client) => pngToJpg(client, bigPng) },
  ];
  console.log(`\n# Levels (converter capacity ${capacity} jobs at once)`);
  for (const kind of kinds) {
    const singles: number[] = [];
    for (let i = 0; i < SINGLE_RUNS + 2; i++)
      singles.push((await kind.run(clients[0] as BenchClient)).totalMs);
    const single = median(singles.slice(2));
    const ceiling = (capacity * 1000) / single;
    console.log(
      `\n## ${kind.label}: single job ${ms(single)} → capacity × cores ≈ ${ceiling.toFixed(1)} jobs/s`,
    );
    console.log("| concurrent | succeeded | jobs/s | of capacity | p50 | p95 | failures |");
    console.log("|---|---|---|---|---|---|---|");
    for (const n of LEVELS) {
      const result = await burst(url, kind, clients, n);
      const jobsPerS = result.ok / result.wallS;
      const failures = result.failures.length === 0 ? "" : [...new Set(result.failures)].join(", ");
      console.log(
        `| ${n} | ${result.ok}/${n} | ${jobsPerS.toFixed(1)} | ${((jobsPerS / ceiling) * 100).toFixed(0)} % | ${ms(percentile(result.latencies, 0.5))} | ${ms(percentile(result.latencies, 0.95))} | ${failures} |`,
      );
    }
  }
}

/** `run` with the Worker isolate's CPU profile printed after it (`--profile`), or just `run`. */
async function profiled<T>(runtime: number, title: string, run: () => Promise<T>): Promise<T> {
  if (!process.argv.includes("--profile")) return run();
  const session = await InspectorSession.open(runtime, "pdf-image-tools");
  try {
    await session.startProfile();
    const result = await run();
    for (const line of profileLines(title, summarizeProfile(await session.stopProfile())))
      console.error(line);
    return result;
  } finally {
    session.close();
  }
}

await withStack({ raiseLimits: true }, async (url) => {
  const processes = stackProcesses();
  const clients = Array.from({ length: 8 }, () => new BenchClient(url));
  const kinds = await burstKinds();
  const memory: IdleMemory[] = [await idleMemory(processes, url, 2000)];
  let failures = 0;
  let nonJson = 0;
  let worstHealthP95 = 0;
  let withoutHealth = 0;
  console.log(
    `# ${ROUNDS} rounds of ${BURST} concurrent tasks per kind (health goal p95 ≤ ${HEALTH_GOAL_MS} ms); local state in ${benchStateRoot()}`,
  );
  console.log(BURST_HEADER);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of KINDS.map((name) => kinds[name])) {
      const result = await profiled(processes.runtime, kind.label, () =>
        burst(url, kind, clients, BURST, processes.runtime),
      );
      failures += result.failures.length;
      nonJson += result.nonJson.length;
      // A burst during which no health request succeeded counts apart (its p95 is undefined).
      if (result.health.length === 0) withoutHealth++;
      else worstHealthP95 = Math.max(worstHealthP95, percentile(result.health, 0.95));
      console.log(burstRow(String(round), kind.label, result));
      for (const answer of new Set(result.nonJson)) console.error(`  ${answer}`);
    }
    memory.push(await idleMemory(processes, url));
  }
  console.log(`\n${IDLE_HEADER}`);
  for (const [round, m] of memory.entries())
    console.log(idleRow(round === 0 ? "start" : `after round ${round}`, m));
  const idle = memory.map((m) => m.runtimeMb);
  const growth = (idle.at(-1) ?? 0) - (idle[1] ?? 0);
  console.log(
    `\nIdle Worker runtime RSS: start ${idle[0]?.toFixed(0)} MB; after rounds 1–${ROUNDS}: ${idle
      .slice(1)
      .map((v) => `${v.toFixed(0)} MB`)
      .join(
        ", ",
      )} (round ${ROUNDS} − round 1: ${growth.toFixed(0)} MB, goal ≤ ${IDLE_GROWTH_GOAL_MB} MB ${growth <= IDLE_GROWTH_GOAL_MB ? "ok" : "OVER"})`,
  );
  console.log(
    `Failures ${failures} (goal 0), non-JSON answers ${nonJson} (goal 0), worst health p95 ${ms(worstHealthP95)}, bursts without a successful health answer ${withoutHealth} (goal ≤ ${HEALTH_GOAL_MS} ms in every burst: ${worstHealthP95 <= HEALTH_GOAL_MS && withoutHealth === 0 ? "ok" : "OVER"})`,
  );
  if (process.argv.includes("--levels")) await levels(url, clients);
});
