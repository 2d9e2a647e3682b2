/**
 * Defaults of the converter's limits. Concurrency defaults to the CPU count, but never to more
 * runners than the machine's memory holds at the per-job cap: a container reports the host's CPUs
 * while its memory is its own (process.constrainedMemory, the cgroup limit, when there is one).
 * Waiting jobs keep their inputs on disk, and the parent holds only a few KB for each, so the
 * queue is bounded by a count and by a byte budget: the memory left once every runner is at its
 * cap, because tmp may be RAM-backed (tmpfs, a container's writable layer in memory).
 */
import { availableParallelism, totalmem } from "node:os";
import { DEFAULT_JOB_TIMEOUT_MS } from "../../contract/index.ts";
import type { PoolLimits } from "./runner-pool.ts";

export { DEFAULT_JOB_TIMEOUT_MS };
export const DEFAULT_JOB_MEMORY_MB = 1024;
/**
 * A busy runner that answers no ping and uses no CPU for this long is wedged (runner.ts): a job's
 * engine answers between pages, in milliseconds, and a long synchronous call still uses CPU.
 */
export const DEFAULT_WEDGED_MS = 10_000;
/**
 * How much lower than the HTTP process ready runners run (runner.ts `lowerPriority`); 0 by default.
 * Measured on the shared 2 cores (bench:load round 1 at load 14–20, nice 0 → 10): health during
 * the merge bursts improved (503s 6 → 0 and 6 → 4 per burst, the 3.4 MB burst's p50 747 → 16 ms),
 * but other users' processes then took the CPU from the runners: a PNG → JPG job took 5–14 s
 * instead of 1–2.5 s, the edge burst (whose overflow the converter runs) fell from 1.1 to 0.2
 * jobs/s and some of its jobs passed the Worker's 180 s deadline. On a machine of its own (the
 * Container) it would only order the converter's own processes: RUNNER_NICE turns it on.
 */
export const DEFAULT_RUNNER_NICE = 0;
/** Waiting jobs by count: a burst of 64 small merges is admitted on any machine. */
export const DEFAULT_QUEUED_JOBS = 64;
/** The byte budget of waiting inputs is never below this (one largest job: 100 MB). */
const MIN_QUEUE_MB = 128;

/** Kept free for the HTTP process (measured ~100 MB resident) and request buffers. */
const SERVICE_RESERVE_MB = 256;
const MB = 1024 * 1024;

function availableMb(): number {
  const constrained = process.constrainedMemory();
  return Math.min(totalmem(), constrained > 0 ? constrained : Number.POSITIVE_INFINITY) / MB;
}

export function defaultConcurrency(memoryMb: number): number {
  const byMemory = Math.floor((availableMb() - SERVICE_RESERVE_MB) / memoryMb);
  return Math.max(1, Math.min(availableParallelism(), byMemory));
}

/** Bytes that waiting inputs may hold: memory minus the service and every runner at its cap. */
export function defaultQueueBytes(concurrency: number, memoryMb: number): number {
  const left = availableMb() - SERVICE_RESERVE_MB - concurrency * memoryMb;
  return Math.max(MIN_QUEUE_MB, Math.floor(left)) * MB;
}

/** Fills in the limits not given. */
export function resolveLimits(given: Partial<PoolLimits>): PoolLimits {
  const memoryMb = given.memoryMb ?? DEFAULT_JOB_MEMORY_MB;
  const concurrency = given.concurrency ?? defaultConcurrency(memoryMb);
  return {
    concurrency,
    queueLimit: given.queueLimit ?? DEFAULT_QUEUED_JOBS,
    queueBytes: given.queueBytes ?? defaultQueueBytes(concurrency, memoryMb),
    timeoutMs: given.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS,
    memoryMb,
    wedgedMs: given.wedgedMs ?? DEFAULT_WEDGED_MS,
    runnerNice: given.runnerNice ?? DEFAULT_RUNNER_NICE,
    ...(given.runnerScript === undefined ? {} : { runnerScript: given.runnerScript }),
  };
}
