/**
 * Entry point of the converter container: `node container/src/main.ts`.
 * Environment:
 * - CONVERTER_SECRET (required): the shared secret every request but GET /healthz must carry in
 *   X-Converter-Secret; the converter refuses to start without it.
 * - HOST (127.0.0.1; the Dockerfile and the Container class set 0.0.0.0), PORT (8080).
 * - MAX_CONCURRENT_JOBS: jobs run at once (CPU count, bounded by memory ÷ JOB_MEMORY_MB).
 * - MAX_QUEUED_JOBS (64) and MAX_QUEUED_MB (memory left once every runner is at its cap, at least
 *   128): jobs waiting beyond the running ones, by count and by declared input size; more answer
 *   503 CONVERTER_BUSY. Waiting inputs sit on disk under the OS temp directory (see limits.ts).
 * - JOB_TIMEOUT_MS (120000), JOB_MEMORY_MB (1024): per-job limits; a tool that declares time per
 *   page (OCR) gets more for a job of more pages, scaled with JOB_TIMEOUT_MS (contract/job-time.ts).
 * - RUNNER_WEDGED_MS (10000): a runner silent (no ping answered) and idle (no CPU) this long
 *   during a job is killed and replaced, and the job fails with JOB_INTERRUPTED.
 * - RUNNER_NICE (0): how much lower than the HTTP process a ready job runner runs (its session's
 *   and its own nice value, 0–19; 0: the same priority).
 * On SIGINT/SIGTERM it stops accepting connections, lets admitted jobs finish and their responses
 * be written (up to the job time limit), then stops its runners and exits.
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
const secret = process.env.CONVERTER_SECRET ?? "";
if (secret.length < 16) {
  console.error("[converter] CONVERTER_SECRET must be set (at least 16 characters); not starting");
  process.exit(1);
}
const timeoutMs = integerSetting("JOB_TIMEOUT_MS", 1) ?? DEFAULT_JOB_TIMEOUT_MS;
const queuedMb = integerSetting("MAX_QUEUED_MB", 1);
const converter = await startConverter({
  host: process.env.HOST || "127.0.0.1",
  port: integerSetting("PORT", 0) ?? 8080,
  secret,
  concurrency: integerSetting("MAX_CONCURRENT_JOBS", 1),
  queueLimit: integerSetting("MAX_QUEUED_JOBS", 0),
  queueBytes: queuedMb === undefined ? undefined : queuedMb * 1024 * 1024,
  timeoutMs,
  memoryMb: integerSetting("JOB_MEMORY_MB", 64),
  wedgedMs: integerSetting("RUNNER_WEDGED_MS", 100),
  runnerNice: integerSetting("RUNNER_NICE", 0),
  log,
  logJobs: true,
});
const { concurrency, queueLimit, queueBytes, memoryMb } = converter.limits;
log(
  `listening on ${converter.url} (jobs: ${concurrency} running, ${queueLimit} queued up to ${Math.round(queueBytes / 1024 / 1024)} MB, ${memoryMb} MB, ${timeoutMs} ms)`,
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
