import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statfsSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  COUNTERS_PREFIX,
  MEMORY_ROOT,
  rateLimitCountersInMemory,
} from "../../scripts/rate-limit-counters.ts";

const made: string[] = [];
function folder(label: string): string {
  const path = mkdtempSync(join(tmpdir(), `rate-limit-counters-${label}-`));
  made.push(path);
  return path;
}
afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe("the local runtime's rate limit counters", () => {
  it("live in a folder of the memory root, linked where Miniflare keeps them, until the cleanup", () => {
    const v3 = join(folder("persist"), "v3");
    const memory = folder("memory");
    const cleanup = rateLimitCountersInMemory(v3, memory);
    const link = join(v3, "ratelimit");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const target = readlinkSync(link);
    expect(dirname(target)).toBe(memory);
    expect(basename(target).startsWith(COUNTERS_PREFIX)).toBe(true);
    // What Miniflare writes under the link lands in the memory folder.
    mkdirSync(join(link, "miniflare-RateLimiterObject"), { recursive: true });
    writeFileSync(join(link, "miniflare-RateLimiterObject", "counts.sqlite"), "x");
    expect(readFileSync(join(target, "miniflare-RateLimiterObject", "counts.sqlite"), "utf8")).toBe("x");
    cleanup?.();
    expect(existsSync(target)).toBe(false);
    expect(existsSync(link)).toBe(false);
  });

  it("replaces what an earlier run left: its counters on disk, or its link and memory folder", () => {
    const v3 = join(folder("persist"), "v3");
    const memory = folder("memory");
    mkdirSync(join(v3, "ratelimit", "miniflare-RateLimiterObject"), { recursive: true });
    rateLimitCountersInMemory(v3, memory);
    expect(lstatSync(join(v3, "ratelimit")).isSymbolicLink()).toBe(true);
    const killed = readlinkSync(join(v3, "ratelimit"));
    // A runtime killed before its cleanup: the next one removes its folder.
    rateLimitCountersInMemory(v3, memory);
    expect(existsSync(killed)).toBe(false);
    expect(readlinkSync(join(v3, "ratelimit"))).not.toBe(killed);
  });

  it("never removes a folder it did not make, and changes nothing without a memory root", () => {
    const v3 = join(folder("persist"), "v3");
    const elsewhere = folder("elsewhere");
    mkdirSync(v3, { recursive: true });
    symlinkSync(elsewhere, join(v3, "ratelimit"));
    expect(rateLimitCountersInMemory(v3, join(folder("none"), "missing"))).toBeUndefined();
    expect(readlinkSync(join(v3, "ratelimit"))).toBe(elsewhere);
    rateLimitCountersInMemory(v3, folder("memory"));
    expect(existsSync(elsewhere)).toBe(true);
    expect(readlinkSync(join(v3, "ratelimit"))).not.toBe(elsewhere);
  });

  it.runIf(existsSync(MEMORY_ROOT))("uses a RAM-backed folder (tmpfs) on Linux", () => {
    const TMPFS_MAGIC = 0x01021994;
    expect(statfsSync(MEMORY_ROOT).type).toBe(TMPFS_MAGIC);
  });
});
