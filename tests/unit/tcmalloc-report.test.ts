/**
 * The load benchmark's reading of Google tcmalloc's text report (bench/tcmalloc.ts): what the Worker
 * runtime's native heap holds live, what tcmalloc keeps free and where (filler, regions, hugepage
 * cache; summed over its allocator instances), and what its object caches hold.
 */
import { describe, expect, it } from "vitest";
import { parseTcmallocReport } from "../../bench/tcmalloc.ts";

const MIB = 1024 * 1024;

/** A `MALLOC:` line as tcmalloc prints it: bytes, MiB in parentheses, then the label. */
const mallocLine = (sign: string, mib: number, label: string) =>
  `MALLOC: ${sign} ${String(mib * MIB).padStart(14)} (${mib.toFixed(1).padStart(7)} MiB) ${label}`;

/** One instance's breakdown of used / free / unmapped space. */
const breakdown = (filler: number, region: number, cache: number) =>
  [
    "HugePageAware: breakdown of used / free / unmapped space:",
    `HugePageAware: filler     24.1 MiB used, ${filler.toFixed(1).padStart(7)} MiB free,    0.0 MiB unmapped`,
    `HugePageAware: region      0.0 MiB used, ${region.toFixed(1).padStart(7)} MiB free,    0.0 MiB unmapped`,
    `HugePageAware: cache       4.0 MiB used, ${cache.toFixed(1).padStart(7)} MiB free,    0.0 MiB unmapped`,
    "HugePageAware: alloc       0.0 MiB used,    0.0 MiB free,    0.0 MiB unmapped",
  ].join("\n");

function report(): string {
  return [
    "------------------------------------------------",
    mallocLine(" ", 300, "Bytes in use by application"),
    mallocLine("+", 90, "Bytes in page heap freelist"),
    mallocLine("+", 2, "Bytes in central cache freelist"),
    mallocLine("+", 0, "Bytes in per-CPU cache freelist"),
    mallocLine("+", 0, "Bytes in Sharded cache freelist"),
    mallocLine("+", 5, "Bytes in transfer cache freelist"),
    mallocLine("+", 40, "Bytes in thread cache freelists"),
    mallocLine("+", 4, "Bytes in malloc metadata"),
    "MALLOC:   ------------",
    mallocLine("=", 441, "Actual memory used (physical + swap)"),
    mallocLine("+", 7, "Bytes released to OS (aka unmapped)"),
    "MALLOC:   ------------",
    mallocLine("=", 448, "Virtual address space used"),
    "MALLOC:       37773942 (   36.0 MiB) Actual memory used at peak",
    breakdown(60, 0, 28),
    "HugeCache: 0 / 10 hugepages cached / cache limit",
    breakdown(1.5, 0.5, 2),
  ].join("\n");
}

describe("tcmalloc's report", () => {
  it("reads live, free-but-kept and cached bytes, not the peak or the unmapped", () => {
    const figures = parseTcmallocReport(report());
    expect(figures.inUseMb).toBe(300);
    expect(figures.pageHeapFreeMb).toBe(90);
    // central 2 + per-CPU 0 + sharded 0 + transfer 5 + thread 40
    expect(figures.cachesFreeMb).toBe(47);
    expect(figures.residentMb).toBe(441);
  });

  it("sums the free space of each part over the allocator's instances", () => {
    const figures = parseTcmallocReport(report());
    expect(figures.fillerFreeMb).toBeCloseTo(61.5, 6);
    expect(figures.regionFreeMb).toBeCloseTo(0.5, 6);
    expect(figures.cacheFreeMb).toBeCloseTo(30, 6);
  });

  it("gives zeros for a report without those lines (another allocator's text)", () => {
    expect(parseTcmallocReport("------\nno figures here\n")).toEqual({
      inUseMb: 0,
      pageHeapFreeMb: 0,
      cachesFreeMb: 0,
      residentMb: 0,
      fillerFreeMb: 0,
      regionFreeMb: 0,
      cacheFreeMb: 0,
    });
  });
});
