/**
 * Bursts of concurrent tasks through the API of a running stack, for bench:load and
 * bench:upload-memory: every task followed to its end, every answer required to be JSON (a non-JSON
 * answer is counted apart: the client cannot read it), an unrelated `GET /api/health` timed over and
 * over during the burst, and the Worker runtime's memory once the stack is idle again.
 */

import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { HEALTH_PATH } from "../contract/index.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import { paddedPdf } from "../tests/support/padded-pdf.ts";
import {
  type BenchClient,
  ErrorAnswer,
  gradientPng,
  mergeTwoPdfs,
  NoAnswer,
  NonJsonAnswer,
  percentile,
  pngToJpg,
  type TaskRun,
} from "./api-driver.ts";
import { InspectorSession } from "./inspector.ts";
import { MB, type stackProcesses, statusField } from "./stack-processes.ts";
import { type TcmallocFigures, tcmallocFigures } from "./tcmalloc.ts";

export interface BurstKind {
  readonly label: string;
  readonly run: (client: BenchClient) => Promise<TaskRun>;
}

/** The kinds of the issue's attack: edge and converter conversions, and 3.4 MB uploads. */
export async function burstKinds(): Promise<{ edge: BurstKind; converter: BurstKind; upload: BurstKind }> {
  const pdfs = [textPdf("A", 1), textPdf("B", 1)];
  // 1155 × 866 = 1 MP: within png-to-jpg's edge budget (pixels and WASM heap).
  const edgePng = await gradientPng(1155, 866);
  const bigPdfs = [paddedPdf(3.4 * MB), textPdf("C", 1)];
  return {
    edge: { label: "PNG → JPG 1 MP (edge)", run: (client) => pngToJpg(client, edgePng) },
    converter: { label: "merge 2 × 1 page (converter)", run: (client) => mergeTwoPdfs(client, pdfs) },
    upload: { label: "merge 3.4 MB + 1 page (converter)", run: (client) => mergeTwoPdfs(client, bigPdfs) },
  };
}

export interface BurstResult {
  readonly n: number;
  readonly ok: number;
  readonly wallS: number;
  readonly latencies: readonly number[];
  /** Of the tasks that succeeded, upload → the answer with the task id (the upload stored). */
  readonly uploadLatencies: readonly number[];
  /** Failed tasks and refused uploads, by code ("no answer" for a dropped connection). */
  readonly failures: readonly string[];
  /** Answers that were not JSON (status and the start of the text). */
  readonly nonJson: readonly string[];
  /** 5xx and 429 JSON answers without a Retry-After header. */
  readonly withoutRetryAfter: number;
  /** Milliseconds each health request took; failed ones count apart. */
  readonly health: readonly number[];
  /** Of each health request, the time the Worker waited for the converter's answer (Server-Timing). */
  readonly healthConverter: readonly number[];
  readonly healthFailures: readonly string[];
  /** The machine's 1-minute load average at the end of the burst. */
  readonly load: number;
  /**
   * CPU seconds the Worker's runtime (every thread of workerd: the Worker, its Durable Objects,
   * miniflare's R2) used during the burst, when its process was given: the work, whatever the load.
   */
  readonly runtimeCpuS: number | undefined;
}

/** CPU seconds used so far by every thread of process `pid` (/proc/<pid>/task/<tid>/schedstat). */
function cpuSeconds(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e9;
}

/** Times `GET /api/health` one request after the other until `stop` resolves. */
async function probeHealth(url: string, stop: Promise<unknown>) {
  const health: number[] = [];
  const converterWaits: number[] = [];
  const failures: string[] = [];
  let stopped = false;
  void stop.finally(() => {
    stopped = true;
  });
  while (!stopped) {
    const started = performance.now();
    try {
      const response = await fetch(new URL(HEALTH_PATH, url), { signal: AbortSignal.timeout(30_000) });
      const type = response.headers.get("Content-Type") ?? "";
      await response.arrayBuffer();
      if (!type.includes("application/json")) failures.push(`non-JSON ${response.status}`);
      else if (response.status !== 200) failures.push(String(response.status));
      else {
        health.push(performance.now() - started);
        // The Worker's own measure of its wait for the converter (worker/health-route.ts).
        const timing = /converter;dur=(\d+)/.exec(response.headers.get("Server-Timing") ?? "");
        if (timing?.[1] !== undefined) converterWaits.push(Number(timing[1]));
      }
    } catch (error) {
      failures.push(String(error).slice(0, 60));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { health, converterWaits, failures };
}

/**
 * `n` tasks of `kind` started at once over `clients`, with health timed meanwhile (and the CPU time
 * of the Worker's runtime, process `runtimePid`, when given).
 */
export async function burst(
  url: string,
  kind: BurstKind,
  clients: readonly BenchClient[],
  n: number,
  runtimePid?: number,
): Promise<BurstResult> {
  const cpuBefore = runtimePid === undefined ? undefined : cpuSeconds(runtimePid);
  const started = performance.now();
  const tasks = Promise.allSettled(
    Array.from({ length: n }, (_, i) => kind.run(clients[i % clients.length] as BenchClient)),
  );
  const [outcomes, probe] = await Promise.all([tasks, probeHealth(url, tasks)]);
  const wallS = (performance.now() - started) / 1000;
  const runs = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
  const ok = runs.filter((run) => run.status.state === "SUCCESS");
  const errors = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
  const nonJson = errors.flatMap((e) => (e instanceof NonJsonAnswer ? [e.message] : []));
  const failures = [
    ...runs.filter((run) => run.status.state !== "SUCCESS").map((run) => run.status.error_code ?? "?"),
    ...errors.map((e) => {
      if (e instanceof ErrorAnswer) return `${e.status} ${e.code}`;
      if (e instanceof NonJsonAnswer) return `non-JSON ${e.status}`;
      return `no answer (${e instanceof NoAnswer ? e.message : String(e).slice(0, 40)})`;
    }),
  ];
  // When each dropped request failed and how long after it was sent (stderr: for correlating with
  // the stack's logs).
  for (const e of errors)
    if (e instanceof NoAnswer)
      console.error(`  no answer at ${e.at}: ${e.message} after ${e.afterMs.toFixed(0)} ms`);
  const withoutRetryAfter = errors.filter(
    (e) => e instanceof ErrorAnswer && (e.status >= 500 || e.status === 429) && e.retryAfter === null,
  ).length;
  return {
    n,
    ok: ok.length,
    wallS,
    latencies: ok.map((run) => run.totalMs),
    uploadLatencies: ok.map((run) => run.startMs),
    failures,
    nonJson,
    withoutRetryAfter,
    health: probe.health,
    healthConverter: probe.converterWaits,
    healthFailures: probe.failures,
    load: loadavg()[0] ?? 0,
    runtimeCpuS:
      runtimePid === undefined || cpuBefore === undefined ? undefined : cpuSeconds(runtimePid) - cpuBefore,
  };
}

/** A field of /proc/<pid>/smaps_rollup in bytes (Anonymous: memory not backed by a file). */
function rollupField(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

export interface IdleMemory {
  /** The Worker runtime (workerd): resident, of it anonymous, and its isolate's JS heap after a GC. */
  readonly runtimeMb: number;
  readonly runtimeAnonMb: number;
  readonly heapUsedMb: number | undefined;
  readonly heapTotalMb: number | undefined;
  /** tcmalloc's own figures for the runtime's native heap, read with gdb (undefined without it). */
  readonly tcmalloc: TcmallocFigures | undefined;
  /** The runtime's resident memory and tcmalloc's figures again after the Worker isolate's collection. */
  readonly afterGcMb: number | undefined;
  readonly tcmallocAfterGc: TcmallocFigures | undefined;
  readonly proxyMb: number | undefined;
  readonly wranglerMb: number;
  readonly converterMb: number;
}

/**
 * Each stack process's resident memory after `settleMs` without requests, and the Worker's JS heap
 * after a full collection. workerd runs the inspector's collection as a task of the isolate, which
 * only runs when the isolate is next entered (measured: no answer for 30 s on an idle isolate, an
 * answer right after one request): health requests to `url` wake it until the collection is done.
 * The resident sizes are read first, so those requests do not count in them.
 */
export async function idleMemory(
  processes: ReturnType<typeof stackProcesses>,
  url: string,
  settleMs = 10_000,
): Promise<IdleMemory> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const rss = (pid: number) => statusField(pid, "VmRSS") / MB;
  const resident = {
    runtimeMb: rss(processes.runtime),
    runtimeAnonMb: rollupField(processes.runtime, "Anonymous") / MB,
    proxyMb: processes.proxy === undefined ? undefined : rss(processes.proxy),
    wranglerMb: rss(processes.wrangler),
    converterMb: rss(processes.converter),
    tcmalloc: tcmallocFigures(processes.runtime),
  };
  let heap: { usedSize: number; totalSize: number } | undefined;
  const wake = setInterval(() => {
    fetch(new URL(HEALTH_PATH, url)).then(
      (response) => response.arrayBuffer(),
      () => undefined,
    );
  }, 500);
  try {
    const session = await InspectorSession.open(processes.runtime, "pdf-image-tools");
    heap = await session.heapUsage(true);
    session.close();
  } catch (error) {
    console.error(`inspector: ${String(error).slice(0, 120)}`);
  } finally {
    clearInterval(wake);
  }
  // V8 frees dead ArrayBuffers' native memory on a background thread after the collection.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const afterGcMb = heap === undefined ? undefined : rss(processes.runtime);
  const tcmallocAfterGc = heap === undefined ? undefined : tcmallocFigures(processes.runtime);
  return {
    ...resident,
    afterGcMb,
    tcmallocAfterGc,
    heapUsedMb: heap === undefined ? undefined : heap.usedSize / MB,
    heapTotalMb: heap === undefined ? undefined : heap.totalSize / MB,
  };
}

export const IDLE_HEADER =
  "| when | Worker runtime RSS | of it anonymous | of it tcmalloc: in use / free kept (filler, region, cache) / caches | Worker JS heap used / total (after GC) | runtime RSS after GC | tcmalloc after GC | entry proxy | Worker's Node process | converter |\n|---|---|---|---|---|---|---|---|---|---|";

export function idleRow(when: string, m: IdleMemory): string {
  const mb = (v: number | undefined) => (v === undefined ? "-" : `${v.toFixed(0)} MB`);
  const tcmalloc = (t: TcmallocFigures | undefined) =>
    t === undefined
      ? "-"
      : `${mb(t.inUseMb)} / ${mb(t.pageHeapFreeMb)} (${mb(t.fillerFreeMb)}, ${mb(t.regionFreeMb)}, ${mb(t.cacheFreeMb)}) / ${mb(t.cachesFreeMb)}`;
  return `| ${when} | ${mb(m.runtimeMb)} | ${mb(m.runtimeAnonMb)} | ${tcmalloc(m.tcmalloc)} | ${mb(m.heapUsedMb)} / ${mb(m.heapTotalMb)} | ${mb(m.afterGcMb)} | ${tcmalloc(m.tcmallocAfterGc)} | ${mb(m.proxyMb)} | ${mb(m.wranglerMb)} | ${mb(m.converterMb)} |`;
}

const ms = (value: number) => (Number.isNaN(value) ? "-" : `${value.toFixed(0)} ms`);

/** Groups equal strings: "503 CONVERTER_BUSY × 3, …". */
function counted(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} × ${count}`).join(", ");
}

export const BURST_HEADER =
  "| round | tasks | succeeded | non-JSON | failures | jobs/s | task p50 | task p95 | upload p50 / p95 | health p50 | health p95 | health max | of it converter p95 | health failed | load | Worker runtime CPU |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

/** One row of the burst table. */
export function burstRow(round: string, label: string, r: BurstResult): string {
  const failures = r.failures.length === 0 ? "0" : `${r.failures.length}: ${counted(r.failures)}`;
  const health = (p: number) => ms(percentile(r.health, p));
  return `| ${round} | ${r.n} ${label} | ${r.ok}/${r.n} | ${r.nonJson.length} | ${failures} | ${(r.ok / r.wallS).toFixed(1)} | ${ms(percentile(r.latencies, 0.5))} | ${ms(percentile(r.latencies, 0.95))} | ${ms(percentile(r.uploadLatencies, 0.5))} / ${ms(percentile(r.uploadLatencies, 0.95))} | ${health(0.5)} | ${health(0.95)} | ${health(1)} | ${ms(percentile(r.healthConverter, 0.95))} | ${r.healthFailures.length === 0 ? "0" : counted(r.healthFailures)} | ${r.load.toFixed(1)} | ${r.runtimeCpuS === undefined ? "-" : `${r.runtimeCpuS.toFixed(1)} s`} |`;
}
