/**
 * Where the local runtime keeps its rate limiters' counters: in memory (a folder on /dev/shm, linked
 * from `<persist-to>/v3/ratelimit`), not on disk beside R2 and the Durable Objects.
 *
 * Miniflare counts each `limit()` call in a SQLite-backed object of its own, and workerd flushes
 * each of those writes to disk (fsync) on its one thread, which also runs the Worker, the task
 * objects and R2. Every task creation, status request and download counts once: strace of workerd
 * during bench:ocr (one OCR page a task, 3 tasks, /tmp on disk, load ~11) showed 17 of its 65
 * flushes (0.11 of 0.39 s) in the rate limiters' database, about 36 ms a task on the thread every
 * request waits for. The counters last one period (10 or 60 s) and Cloudflare's rate limiting keeps
 * them in memory too; a restart that loses them starts every client's minute afresh. Task state,
 * files and contact messages stay on disk.
 */
import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Memory-backed folder the counters go to, when the machine has one. */
export const MEMORY_ROOT = "/dev/shm";
/** Prefix of the counters' folders there (a stale one, left by a killed runtime, is removed by the next). */
export const COUNTERS_PREFIX = "pdf-tools-ratelimit-";

function isDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Links `<v3>/ratelimit` (Miniflare's rate limit state under `resourcePersistencePath`) to a new
 * folder in `memoryRoot`, replacing what an earlier run left there (its counters, or a link and the
 * folder it names). Returns the cleanup to run when the runtime exits, or undefined (nothing
 * changed) when `memoryRoot` is not a folder.
 */
export function rateLimitCountersInMemory(v3: string, memoryRoot = MEMORY_ROOT): (() => void) | undefined {
  if (!isDirectory(memoryRoot)) return undefined;
  const link = join(v3, "ratelimit");
  let stat: ReturnType<typeof lstatSync> | undefined;
  try {
    stat = lstatSync(link);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink()) {
    const target = readlinkSync(link);
    // Only a folder this function made: never follow a link somewhere else.
    if (dirname(target) === memoryRoot && basename(target).startsWith(COUNTERS_PREFIX)) {
      rmSync(target, { recursive: true, force: true });
    }
    rmSync(link, { force: true });
  } else if (stat !== undefined) {
    rmSync(link, { recursive: true, force: true });
  }
  mkdirSync(v3, { recursive: true });
  const folder = mkdtempSync(join(memoryRoot, COUNTERS_PREFIX));
  symlinkSync(folder, link);
  return () => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(link, { force: true });
  };
}
