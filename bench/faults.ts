/**
 * Faults against the real local stack (converter + `wrangler dev`, rate limits raised): tasks are
 * started, then the converter or one of its job runners is frozen with SIGSTOP, and every task is
 * followed to its end. Goal: every task ends — SUCCESS after recovery, or a named failure — within
 * its deadline after creation (the 202): the 5-minute queue window (QUEUE_POLICY in
 * worker/task-object.ts), plus the last retry's backoff (at most 2 s) and that attempt's silence
 * limit (CONVERTER_DEADLINES.silentMs, 20 s). Also prints what
 * `GET /api/health` answered during each fault (status, time, runners).
 *
 * Faults:
 * - converter stopped 45 s, then continued: jobs in flight fall silent, tasks go back to QUEUED
 *   and are retried; after SIGCONT they succeed;
 * - one busy runner stopped: the converter's heartbeat finds it wedged in ~10 s, replaces it, the
 *   job fails JOB_INTERRUPTED and the task retries it once;
 * - converter stopped for good (`--all` only: about 6 minutes): every task fails with
 *   CONVERTER_UNAVAILABLE at the end of its queue window; the converter is continued afterwards.
 * Run: `npm run bench:faults [-- --all]`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { HEALTH_PATH, healthStatusSchema } from "../contract/index.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import { BenchClient, mergeTwoPdfs, type TaskRun, withStack } from "./api-driver.ts";

const QUEUE_WINDOW_MS = 5 * 60_000;
const SILENT_MS = 20_000;
const BACKOFF_CAP_MS = 2000;
const DEADLINE_MS = QUEUE_WINDOW_MS + BACKOFF_CAP_MS + SILENT_MS;
const TASKS = 8;
const all = process.argv.includes("--all");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The converter's job runners: its child processes. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          const stat = readFileSync(`/proc/${name}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  }
}

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The runner using the most CPU over 300 ms (one busy with a job), looked for during 30 s. */
async function busyRunner(converterPid: number): Promise<number | undefined> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const runners = childrenOf(converterPid);
    const before = runners.map(cpuTicks);
    await sleep(300);
    const used = runners.map((pid, i) => cpuTicks(pid) - (before[i] ?? 0));
    const most = Math.max(0, ...used);
    if (most >= 2) return runners[used.indexOf(most)];
  }
  return undefined;
}

async function health(url: string): Promise<string> {
  const started = performance.now();
  try {
    const response = await fetch(new URL(HEALTH_PATH, url), { signal: AbortSignal.timeout(15_000) });
    const body = healthStatusSchema.parse(await response.json());
    const runners = body.converter.runners;
    const detail = runners
      ? ` runners busy ${runners.busy} idle ${runners.idle} starting ${runners.starting} replaced ${runners.replaced} wedged ${runners.wedged}`
      : "";
    return `${response.status} in ${seconds(performance.now() - started)}${detail}`;
  } catch (error) {
    return `no answer in ${seconds(performance.now() - started)} (${String(error).slice(0, 40)})`;
  }
}

interface Fault {
  readonly label: string;
  /** Merges of this many pages per input: long enough to be mid-job when the fault starts. */
  readonly pages: number;
  /** Pause between starting the uploads and the fault. */
  readonly delayMs: number;
  /** Starts the fault once the tasks are running; resolves with a note; `end` undoes it. */
  start(url: string, converterPid: number): Promise<{ note: string; end(): void }>;
  /** When to undo it: after this many ms, or when every task has ended (undefined). */
  readonly endAfterMs?: number;
}

function stopConverter(pid: number) {
  process.kill(pid, "SIGSTOP");
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    process.kill(pid, "SIGCONT");
  };
}

const faults: Fault[] = [
  {
    label: "converter SIGSTOP 45 s, then SIGCONT",
    pages: 600,
    delayMs: 800,
    endAfterMs: 45_000,
    async start(url, pid) {
      const end = stopConverter(pid);
      await sleep(5000);
      return { note: `health while stopped: ${await health(url)}`, end };
    },
  },
  {
    label: "one busy runner SIGSTOP (not continued)",
    pages: 1500,
    delayMs: 0,
    async start(url, pid) {
      const runner = await busyRunner(pid);
      if (runner === undefined)
        return { note: `no busy runner found among ${childrenOf(pid).length}`, end: () => {} };
      process.kill(runner, "SIGSTOP");
      await sleep(15_000);
      return { note: `runner ${runner} stopped; health 15 s later: ${await health(url)}`, end: () => {} };
    },
  },
  ...(all
    ? [
        {
          label: "converter SIGSTOP until every task ended",
          pages: 1,
          delayMs: 800,
          async start(url: string, pid: number) {
            const end = stopConverter(pid);
            await sleep(5000);
            return { note: `health while stopped: ${await health(url)}`, end };
          },
        } satisfies Fault,
      ]
    : []),
];

interface Row {
  readonly fault: string;
  readonly tasks: number;
  readonly outcomes: string;
  readonly maxMs: number;
  readonly note: string;
}

async function runFault(url: string, converterPid: number, fault: Fault): Promise<Row> {
  const pdfs = [textPdf("A", fault.pages), textPdf("B", fault.pages)];
  const client = new BenchClient(url);
  const runs: Promise<TaskRun | Error>[] = Array.from({ length: TASKS }, () =>
    mergeTwoPdfs(client, pdfs).catch((error: unknown) => new Error(String(error))),
  );
  // Some uploads still arriving, some jobs started.
  await sleep(fault.delayMs);
  const { note, end } = await fault.start(url, converterPid);
  const timer = fault.endAfterMs === undefined ? undefined : setTimeout(end, fault.endAfterMs - 5000);
  const results = await Promise.all(runs);
  clearTimeout(timer);
  end();
  const counts = new Map<string, number>();
  for (const result of results) {
    const key =
      result instanceof Error
        ? `error: ${result.message.slice(0, 50)}`
        : result.status.state === "SUCCESS"
          ? "SUCCESS"
          : `FAILURE ${result.status.error_code ?? "?"}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // From the task's creation (its 202), where its deadline starts.
  const maxMs = Math.max(
    ...results.map((result) => (result instanceof Error ? Number.NaN : result.totalMs - result.startMs)),
  );
  return {
    fault: fault.label,
    tasks: TASKS,
    outcomes: [...counts].map(([key, n]) => `${n} ${key}`).join(", "),
    maxMs,
    note,
  };
}

await withStack({ raiseLimits: true }, async (url, stack) => {
  const rows: Row[] = [];
  for (const fault of faults) {
    const pid = stack.converterPid();
    if (pid === undefined) throw new Error("no converter process");
    console.error(`# ${fault.label} …`);
    rows.push(await runFault(url, pid, fault));
    // The next fault starts on a settled converter (a replaced runner ready again).
    await sleep(3000);
  }
  console.log(
    `# Faults: ${TASKS} merges each, deadline ${seconds(DEADLINE_MS)} after creation (queue window + last backoff + silence limit)\n`,
  );
  console.log("| fault | tasks | outcomes | max time from creation to end | within deadline |");
  console.log("|---|---|---|---|---|");
  for (const row of rows) {
    const within = Number.isFinite(row.maxMs) && row.maxMs <= DEADLINE_MS;
    console.log(
      `| ${row.fault} | ${row.tasks} | ${row.outcomes} | ${seconds(row.maxMs)} | ${within ? "yes" : "NO"} |`,
    );
  }
  console.log("");
  for (const row of rows) console.log(`- ${row.fault}: ${row.note}`);
  console.log(`- health after the faults: ${await health(url)}`);
});
