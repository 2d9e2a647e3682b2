/**
 * The V8 inspector of the stack's Worker runtime (workerd, started by wrangler dev with
 * `--inspector-addr`), for benchmarks: the JavaScript heap of the Worker's isolate beside the
 * process's resident memory, and CPU profiles of what the isolate's one thread spends its time on.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { CpuProfile } from "./cpu-profile.ts";

/**
 * The ports `pid` listens on, from /proc (its socket inodes among the listening TCP sockets):
 * wrangler dev starts workerd with `--inspector-addr=127.0.0.1:0`, so the port is chosen at start.
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        return match?.[1] === undefined ? [] : [match[1]];
      } catch {
        return [];
      }
    }),
  );
  return readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === "0A" && inodes.has(fields[9] ?? ""))
    .map((fields) => Number.parseInt(fields[1]?.split(":")[1] ?? "0", 16));
}

/** workerd's inspector among the ports it listens on: the one that lists inspector targets. */
async function inspectorTargets(pid: number): Promise<{ port: number; targets: Target[] }> {
  for (const port of listeningPorts(pid)) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/list`, {
        signal: AbortSignal.timeout(3000),
      });
      const targets = (await response.json()) as Target[];
      if (Array.isArray(targets)) return { port, targets };
    } catch {}
  }
  throw new Error(`no inspector among the ports of process ${pid}`);
}

interface Target {
  readonly id: string;
  readonly title: string;
  readonly webSocketDebuggerUrl: string;
}

/** One inspector session over the DevTools protocol. */
export class InspectorSession {
  readonly #socket: WebSocket;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (e: Error) => void }>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown };
      if (message.id === undefined) return;
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(JSON.stringify(message.error)));
      else pending?.resolve(message.result);
    });
    // workerd keeps one session per isolate: another client's session closes this one.
    socket.addEventListener("close", () => {
      for (const pending of this.#pending.values()) pending.reject(new Error("inspector session closed"));
      this.#pending.clear();
    });
  }

  /** A session on the isolate of the Worker named `worker` (wrangler.toml `name`) in runtime `pid`. */
  static async open(pid: number, worker: string): Promise<InspectorSession> {
    const { port, targets } = await inspectorTargets(pid);
    // workerd names the Worker's own isolate core:user:<name>; miniflare's services are others.
    const target = targets.find((t) => t.id === `core:user:${worker}`);
    if (target === undefined) throw new Error(`no inspector target ${worker} in process ${pid}`);
    const url = target.webSocketDebuggerUrl.replace(/^ws:\/\/[^/]+/, `ws://127.0.0.1:${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error(`inspector ${url} refused`)), { once: true });
    });
    return new InspectorSession(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#nextId++;
    this.#socket.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      setTimeout(() => {
        if (this.#pending.delete(id)) reject(new Error(`inspector: no answer to ${method}`));
      }, 30_000).unref();
    });
  }

  /** The isolate's JavaScript heap in bytes (used and total), after a full collection when `collect`. */
  async heapUsage(collect = false): Promise<{ usedSize: number; totalSize: number }> {
    if (collect) await this.send("HeapProfiler.collectGarbage");
    return this.send("Runtime.getHeapUsage");
  }

  /** Starts V8's sampling CPU profiler on the isolate, one sample every `intervalUs`. */
  async startProfile(intervalUs = 1000): Promise<void> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: intervalUs });
    await this.send("Profiler.start");
  }

  /** Stops the profiler and returns what it recorded since `startProfile`. */
  async stopProfile(): Promise<CpuProfile> {
    const { profile } = await this.send<{ profile: CpuProfile }>("Profiler.stop");
    return profile;
  }

  close(): void {
    this.#socket.close();
  }
}
