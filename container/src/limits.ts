/**
 * Defaults of the converter's limits. Concurrency defaults to the CPU count, but never to more
 * runners than the machine's memory holds at the per-job cap: a container reports the host's CPUs
 * while its memory is its own (process.constrainedMemory, the cgroup limit, when there is one).
 */
import { availableParallelism, totalmem } from "node:os";
import type { PoolLimits } from "./runner-pool.ts";

export const DEFAULT_JOB_TIMEOUT_MS = 120_000;
export const DEFAULT_JOB_MEMORY_MB = 1024;

/** Kept free for the HTTP process (measured ~100 MB resident) and request buffers. */
const SERVICE_RESERVE_MB = 256;
const MB = 1024 * 1024;

export function defaultConcurrency(memoryMb: number): number {
  const constrained = process.constrainedMemory();
  const available = Math.min(totalmem(), constrained > 0 ? constrained : Number.POSITIVE_INFINITY) / MB;
  const byMemory = Math.floor((available - SERVICE_RESERVE_MB) / memoryMb);
  return Math.max(1, Math.min(availableParallelism(), byMemory));
}

/** Fills in the limits not given: the queue holds as many jobs as run at once. */
export function resolveLimits(given: Partial<PoolLimits>): PoolLimits {
  const memoryMb = given.memoryMb ?? DEFAULT_JOB_MEMORY_MB;
  const concurrency = given.concurrency ?? defaultConcurrency(memoryMb);
  return {
    concurrency,
    queueLimit: given.queueLimit ?? concurrency,
    timeoutMs: given.timeoutMs ?? DEFAULT_JOB_TIMEOUT_MS,
    memoryMb,
  };
}
