/**
 * Google tcmalloc's own account of the Worker runtime's heap (workerd links it statically), read
 * from the running process with gdb: `TCMalloc_Internal_GetStats` writes tcmalloc's text report into
 * a buffer the debugger allocates in the process, which is copied out and freed. For benchmarks
 * only (it stops the process for about 2 s); undefined when gdb is missing or cannot attach.
 * What the figures mean: https://github.com/google/tcmalloc/tree/master/docs/stats.md
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MB } from "./stack-processes.ts";

export interface TcmallocFigures {
  /** Bytes the program holds (malloc'd, not yet freed). */
  readonly inUseMb: number;
  /** Free pages tcmalloc keeps backed (resident) in its page heap. */
  readonly pageHeapFreeMb: number;
  /** Free objects in the thread, transfer and central caches. */
  readonly cachesFreeMb: number;
  /** Resident memory of tcmalloc's heap, metadata included ("Actual memory used"). */
  readonly residentMb: number;
  /** Of the page heap's free pages, those in partly used hugepages (the filler), in huge regions and in the hugepage cache. */
  readonly fillerFreeMb: number;
  readonly regionFreeMb: number;
  readonly cacheFreeMb: number;
}

const BUFFER = 4 * MB;

/** The figure of the `MALLOC:` line whose label starts with `label`, in MB. */
function mallocLine(report: string, label: string): number {
  const line = report.split("\n").find((l) => l.startsWith("MALLOC:") && l.includes(`) ${label}`));
  const bytes = /MALLOC:\s*[+=]?\s*(\d+)/.exec(line ?? "")?.[1];
  return bytes === undefined ? 0 : Number(bytes) / MB;
}

/** Free MiB of one part of the hugepage-aware allocator, summed over its instances (normal, cold, sampled). */
function hugePageAwareFree(report: string, part: "filler" | "region" | "cache"): number {
  const pattern = new RegExp(`^HugePageAware: ${part}\\s+[\\d.]+ MiB used,\\s+([\\d.]+) MiB free`, "gm");
  return [...report.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Parses tcmalloc's text report (exported for its test). */
export function parseTcmallocReport(report: string): TcmallocFigures {
  return {
    inUseMb: mallocLine(report, "Bytes in use by application"),
    pageHeapFreeMb: mallocLine(report, "Bytes in page heap freelist"),
    cachesFreeMb: ["central cache", "per-CPU cache", "Sharded cache", "transfer cache", "thread cache"]
      .map((cache) => mallocLine(report, `Bytes in ${cache} freelist`))
      .reduce((a, b) => a + b, 0),
    residentMb: mallocLine(report, "Actual memory used (physical"),
    fillerFreeMb: hugePageAwareFree(report, "filler"),
    regionFreeMb: hugePageAwareFree(report, "region"),
    cacheFreeMb: hugePageAwareFree(report, "cache"),
  };
}

/** tcmalloc's text report of process `pid`, or undefined without gdb. */
export function tcmallocReport(pid: number): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "tcmalloc-report-"));
  const file = join(dir, "report.txt");
  try {
    const run = spawnSync(
      "gdb",
      [
        "-p",
        String(pid),
        "-batch",
        "-nx",
        "-q",
        "-ex",
        `set $buf = (char *) malloc(${BUFFER})`,
        "-ex",
        `set $n = (unsigned long) TCMalloc_Internal_GetStats($buf, ${BUFFER})`,
        "-ex",
        `dump binary memory ${file} $buf $buf + $n`,
        "-ex",
        "call (void) free($buf)",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (run.error !== undefined || run.status !== 0) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function tcmallocFigures(pid: number): TcmallocFigures | undefined {
  const report = tcmallocReport(pid);
  return report === undefined ? undefined : parseTcmallocReport(report);
}
