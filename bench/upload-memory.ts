/**
 * Peak memory of the Worker (workerd) and of the converter's parent process while 1, 50 and 95 MB
 * PDFs are uploaded through the API: to validate-pdf and to merge-pdf (the merge is waited for).
 * Run: `node bench/upload-memory.ts` (builds the client when dist/client is missing).
 *
 * Peak RSS comes from /proc: VmHWM after resetting it through clear_refs ("5") where the kernel
 * permits, otherwise VmRSS sampled every 10 ms. Growth = peak during a phase - RSS at its start.
 * Phases: the request until it is answered (upload, and for validate-pdf the converter call), then
 * for merge-pdf the job until the task ends. Locally the Worker's runtime process also runs the
 * simulated R2 bucket and the task's Durable Object, so its growth is an upper bound for the Worker.
 * The first large request after the stack starts also pays a one-time growth of the local runtime
 * (150–216 MB measured, whichever route comes first; later requests of any size 13–34 MB), so the
 * first row reads high. BENCH_ROUTES (default "validate-pdf,merge-pdf") and BENCH_SIZES_MB
 * (default "1,50,95") set the order and sizes.
 * Then three bursts, each 64 concurrent merges and 64 concurrent PNG → JPG at the edge (1 MP),
 * with the Worker runtime's resident memory once idle (10 s without requests) before the first and
 * after each burst (BENCH_BURSTS=0 skips them; the rate limits are raised for the run through a
 * temporary wrangler config).
 * Goals: Worker ≤ 32 MB whatever the size; converter parent ≤ 64 MB; idle Worker memory after the
 * third burst within 64 MB of the figure after the first.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_PATHS, CSRF_HEADER, statusPath, TOOLS } from "../contract/index.ts";
import { buildClient, freePort, ROOT, startStack } from "../scripts/stack.ts";
import { paddedPdf } from "../tests/support/padded-pdf.ts";
import { BenchClient, raisedLimitsConfig } from "./api-driver.ts";
import {
  BURST_HEADER,
  burst,
  burstKinds,
  burstRow,
  IDLE_HEADER,
  type IdleMemory,
  idleMemory,
  idleRow,
} from "./bursts.ts";
import { MB, stackProcesses, statusField } from "./stack-processes.ts";

const SIZES_MB = (process.env.BENCH_SIZES_MB ?? "1,50,95").split(",").map(Number);
const WORKER_GOAL_MB = 32;
const CONVERTER_GOAL_MB = 64;
const IDLE_GROWTH_GOAL_MB = 64;
const BURSTS = Number(process.env.BENCH_BURSTS ?? 3);

/** Measures one process's peak RSS growth across `action`. */
class PeakMeter {
  readonly pid: number;
  #before = 0;
  #sampled = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #hwm = false;

  constructor(pid: number) {
    this.pid = pid;
  }

  start(): void {
    this.#before = statusField(this.pid, "VmRSS");
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      this.#hwm = statusField(this.pid, "VmHWM") <= this.#before + MB;
    } catch {
      this.#hwm = false;
    }
    this.#sampled = this.#before;
    this.#timer = setInterval(() => {
      this.#sampled = Math.max(this.#sampled, statusField(this.pid, "VmRSS"));
    }, 10);
  }

  /** Growth in MB, and how the peak was read. */
  stop(): { growthMb: number; method: string } {
    clearInterval(this.#timer);
    const peak = this.#hwm ? statusField(this.pid, "VmHWM") : this.#sampled;
    return { growthMb: Math.max(0, peak - this.#before) / MB, method: this.#hwm ? "VmHWM" : "sampled VmRSS" };
  }
}

async function session(url: string) {
  const response = await fetch(new URL(API_PATHS.csrfToken, url));
  const { csrf_token } = (await response.json()) as { csrf_token: string };
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { [CSRF_HEADER]: csrf_token, Cookie: cookie, Origin: url };
}

function formOf(field: string, files: { name: string; bytes: Uint8Array<ArrayBuffer> }[]): FormData {
  const data = new FormData();
  for (const file of files) data.append(field, new Blob([file.bytes]), file.name);
  return data;
}

async function waitForTask(url: string, taskId: string, headers: Record<string, string>): Promise<string> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const response = await fetch(new URL(statusPath("pdf", taskId), url), { headers });
    const status = (await response.json()) as { state: string; error?: { code: string } | null };
    if (status.state === "SUCCESS") return "SUCCESS";
    if (status.state === "FAILURE") return `FAILURE ${status.error?.code ?? ""}`;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return "TIMEOUT";
}

/** Sends the request; `answered` runs as soon as it is answered, before a merge's job is waited for. */
async function upload(
  url: string,
  route: "validate-pdf" | "merge-pdf",
  pdf: Uint8Array<ArrayBuffer>,
  answered: () => void,
): Promise<string> {
  const headers = await session(url);
  if (route === "validate-pdf") {
    const body = formOf("file", [{ name: "big.pdf", bytes: pdf }]);
    const response = await fetch(new URL(API_PATHS.validatePdf, url), { method: "POST", headers, body });
    answered();
    return `${response.status} ${await response.text()}`.slice(0, 200);
  }
  const body = formOf("files", [
    { name: "big.pdf", bytes: pdf },
    { name: "small.pdf", bytes: paddedPdf(4096) },
  ]);
  const response = await fetch(new URL(TOOLS["merge-pdf"].endpoint.path, url), {
    method: "POST",
    headers,
    body,
  });
  const answer = (await response.json()) as { task_id?: string };
  answered();
  if (answer.task_id === undefined) return `${response.status} ${JSON.stringify(answer)}`.slice(0, 200);
  return `${response.status} ${await waitForTask(url, answer.task_id, headers)}`;
}

if (!existsSync(join(ROOT, "dist/client/index.html"))) await buildClient();
const persistTo = mkdtempSync(join(tmpdir(), "bench-upload-"));
const wranglerConfig = BURSTS > 0 ? raisedLimitsConfig() : undefined;
const stack = await startStack({
  port: await freePort(),
  converterPort: await freePort(),
  persistTo,
  quiet: true,
  wranglerConfig,
});
try {
  // The Worker's runtime, and under wrangler dev its entry proxy (a second workerd); else the Node
  // process that runs the runtime (scripts/worker-runtime.ts).
  const processes = stackProcesses();
  const { runtime, converter } = processes;
  const proxy = processes.proxy ?? processes.wrangler;
  const cell = (growth: number | undefined, goal: number | null) =>
    `${(growth ?? 0).toFixed(1)} MB${goal === null ? "" : (growth ?? 0) <= goal ? " ok" : " OVER"}`;
  const rows: string[][] = [];
  const ROUTES = (process.env.BENCH_ROUTES ?? "validate-pdf,merge-pdf").split(",") as (
    | "validate-pdf"
    | "merge-pdf"
  )[];
  for (const route of ROUTES) {
    for (const sizeMb of SIZES_MB) {
      const pdf = paddedPdf(sizeMb * MB);
      const meters = [runtime, proxy, converter].map((pid) => new PeakMeter(pid));
      for (const meter of meters) meter.start();
      let request: number[] = [];
      const answer = await upload(stack.url, route, pdf, () => {
        request = meters.map((meter) => meter.stop().growthMb);
        for (const meter of meters) meter.start();
      });
      const job = meters.map((meter) => meter.stop().growthMb);
      rows.push([
        route,
        `${sizeMb} MB`,
        cell(request[0], WORKER_GOAL_MB),
        route === "merge-pdf" ? cell(job[0], null) : "-",
        cell(request[1], null),
        cell(Math.max(request[2] ?? 0, job[2] ?? 0), CONVERTER_GOAL_MB),
        answer.replaceAll("\n", " "),
      ]);
      console.error(`${route} ${sizeMb} MB done`);
    }
  }
  const header = [
    "route",
    "file",
    `Worker, request (≤ ${WORKER_GOAL_MB})`,
    "Worker, merge job",
    processes.proxy === undefined ? "Worker's Node process" : "entry proxy",
    `converter parent (≤ ${CONVERTER_GOAL_MB})`,
    "answer",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | "));
  if (BURSTS > 0) {
    const kinds = await burstKinds();
    const clients = Array.from({ length: 8 }, () => new BenchClient(stack.url));
    const memory: IdleMemory[] = [await idleMemory(processes, stack.url)];
    console.log(`\n${BURST_HEADER}`);
    for (let round = 1; round <= BURSTS; round++) {
      for (const kind of [kinds.converter, kinds.edge])
        console.log(burstRow(String(round), kind.label, await burst(stack.url, kind, clients, 64)));
      memory.push(await idleMemory(processes, stack.url));
    }
    console.log(`\n${IDLE_HEADER}`);
    for (const [round, m] of memory.entries())
      console.log(idleRow(round === 0 ? "before the bursts" : `after burst ${round}`, m));
    const idle = memory.map((m) => m.runtimeMb);
    const growth = (idle.at(-1) ?? 0) - (idle[1] ?? 0);
    console.log(
      `\nIdle Worker runtime RSS: before the bursts ${idle[0]?.toFixed(0)} MB; after bursts 1–${BURSTS}: ${idle
        .slice(1)
        .map((v) => `${v.toFixed(0)} MB`)
        .join(
          ", ",
        )} (last − first: ${growth.toFixed(0)} MB, goal ≤ ${IDLE_GROWTH_GOAL_MB} MB ${growth <= IDLE_GROWTH_GOAL_MB ? "ok" : "OVER"})`,
    );
  }
} finally {
  await stack.stop();
  if (wranglerConfig !== undefined) rmSync(wranglerConfig, { force: true });
  rmSync(persistTo, { recursive: true, force: true });
}
