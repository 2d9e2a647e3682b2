/**
 * The processes of a local stack started by this benchmark (scripts/stack.ts), read from /proc:
 * the Worker's runtime (workerd, the one with an inspector) and the Node process that runs it; under
 * wrangler dev also its entry proxy (a second workerd on the public port); the converter's Node process.
 */
import { readdirSync, readFileSync } from "node:fs";

export const MB = 1024 * 1024;

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
export function statusField(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** Our descendants (the stack's processes are detached but still our children's children). */
export function descendants(): { pid: number; cmdline: string; comm: string }[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const isOurs = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  return [...parents.keys()].filter(isOurs).flatMap((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      return [{ pid, cmdline, comm }];
    } catch {
      return [];
    }
  });
}

/**
 * The pids of the stack's Worker runtime, the Node process that runs it (scripts/worker-runtime.ts,
 * or wrangler dev's), wrangler dev's entry proxy (absent on Miniflare alone) and the converter.
 */
export function stackProcesses(): {
  runtime: number;
  proxy: number | undefined;
  wrangler: number;
  converter: number;
} {
  const processes = descendants();
  // bin/wrangler.js starts wrangler-dist/cli.js, the Node process that runs miniflare.
  const wrangler = processes.find(
    (p) => p.cmdline.includes("wrangler-dist/cli.js") || p.cmdline.includes("scripts/worker-runtime.ts"),
  );
  const runtime = processes.find((p) => p.comm === "workerd" && p.cmdline.includes("--inspector"));
  const proxy = processes.find((p) => p.comm === "workerd" && !p.cmdline.includes("--inspector"));
  const converter = processes.find((p) => p.cmdline.includes("container/src/main.ts"));
  if (runtime === undefined || wrangler === undefined || converter === undefined) {
    throw new Error("workerd, its Node process or the converter not found");
  }
  return { runtime: runtime.pid, proxy: proxy?.pid, wrangler: wrangler.pid, converter: converter.pid };
}
