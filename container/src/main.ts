/**
 * Entry point of the converter container: `node container/src/main.ts`.
 * Environment: PORT (8080), HOST (0.0.0.0), MAX_CONCURRENT_JOBS (CPU count, bounded by memory,
 * see limits.ts), MAX_QUEUED_JOBS (= MAX_CONCURRENT_JOBS), JOB_TIMEOUT_MS (120000),
 * JOB_MEMORY_MB (1024).
 * On SIGINT/SIGTERM it stops accepting connections, lets admitted jobs finish (up to the job time
 * limit), then stops its runners and exits.
 */
import { DEFAULT_JOB_TIMEOUT_MS } from "./limits.ts";
import { startConverter } from "./server.ts";

/** An integer setting from the environment; undefined when unset (the default applies). */
function integerSetting(name: string, minimum: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new Error(`${name} must be an integer ≥ ${minimum}, got "${raw}"`);
  }
  return value;
}

const log = (line: string) => console.log(`[converter] ${line}`);
const timeoutMs = integerSetting("JOB_TIMEOUT_MS", 1) ?? DEFAULT_JOB_TIMEOUT_MS;
const converter = await startConverter({
  host: process.env.HOST || "0.0.0.0",
  port: integerSetting("PORT", 0) ?? 8080,
  concurrency: integerSetting("MAX_CONCURRENT_JOBS", 1),
  queueLimit: integerSetting("MAX_QUEUED_JOBS", 0),
  timeoutMs,
  memoryMb: integerSetting("JOB_MEMORY_MB", 64),
  log,
  logJobs: true,
});
const { concurrency, queueLimit, memoryMb } = converter.limits;
log(
  `listening on ${converter.url} (jobs: ${concurrency} running, ${queueLimit} queued, ${memoryMb} MB, ${timeoutMs} ms)`,
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${signal}: finishing admitted jobs, then stopping`);
  await converter.close(timeoutMs);
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
