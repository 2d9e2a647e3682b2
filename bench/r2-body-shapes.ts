/**
 * What one R2 `put` and `get` of a 3.4 MB file costs the Worker runtime's thread on Miniflare, for
 * each body shape the Worker could hand it (README "Health and the local disk": the 3.4 MB bursts
 * wait for miniflare's R2 emulation, which runs on the same workerd thread as the Worker).
 *
 * A throw-away Worker with one R2 binding (state in memory, as bench:load keeps it) stores the same
 * bytes N times per shape, one put after the other; the runtime's CPU time (all its threads, from
 * /proc/<pid>/task/<tid>/schedstat) and the wall time are read around each shape's request, less a
 * request that does nothing. Reads: `get` → `arrayBuffer()` (the edge), `get` → a POST of its body to
 * a local Node server (the converter's input), `get` → the response body (a download).
 * Then K puts at once (1, 8, 16) per shape while this process sends requests that do nothing, one
 * after the other: their latency is how long the thread left its sockets unread. "yielding N" writes
 * the body into a FixedLengthStream N bytes at a time with a timer between two writes (what
 * worker/r2-body.ts does); "when stalled" yields only when Date.now() has not moved since the last
 * write, which is no signal of a poll: the clock moves while the sockets stay unread.
 *
 * Run: `npm run bench:r2-body-shapes -- [--size BYTES] [--n N]`.
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { benchStateRoot } from "./api-driver.ts";

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
}
const SIZE = Number(argument("size") ?? 3.4 * 1024 * 1024);
const N = Number(argument("n") ?? 20);

const WORKER = /* js */ `
let bytes;
function data(size) {
  if (bytes?.length === size) return bytes;
  bytes = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(size, at + 65536)));
  return bytes;
}
function fixed(source, chunk) {
  const stream = new FixedLengthStream(source.length);
  (async () => {
    const writer = stream.writable.getWriter();
    for (let at = 0; at < source.length; at += chunk) await writer.write(source.slice(at, at + chunk));
    await writer.close();
  })();
  return stream.readable;
}
function ahead(source, chunk) {
  const stream = new FixedLengthStream(source.length);
  (async () => {
    const writer = stream.writable.getWriter();
    let turn = new Promise((resolve) => setTimeout(resolve, 0));
    for (let at = 0; at < source.length; at += chunk) {
      if (at > 0) {
        await turn;
        turn = new Promise((resolve) => setTimeout(resolve, 0));
      }
      await writer.write(source.subarray(at, at + chunk));
    }
    await writer.close();
  })();
  return stream.readable;
}
function yielding(source, chunk, whenStalled = false) {
  const stream = new FixedLengthStream(source.length);
  (async () => {
    const writer = stream.writable.getWriter();
    let polledAt = Date.now();
    for (let at = 0; at < source.length; at += chunk) {
      await writer.write(source.subarray(at, at + chunk));
      // Date.now() moves only when the thread has looked at its sockets and timers.
      if (!whenStalled || Date.now() === polledAt) await new Promise((resolve) => setTimeout(resolve, 0));
      polledAt = Date.now();
    }
    await writer.close();
  })();
  return stream.readable;
}
async function putShape(bucket, key, shape, source) {
  switch (shape) {
    case "uint8array": return bucket.put(key, source);
    case "arraybuffer": return bucket.put(key, source.buffer);
    case "blob": return bucket.put(key, new Blob([source]));
    case "fixed 16 KiB": return bucket.put(key, fixed(source, 16384));
    case "fixed 64 KiB": return bucket.put(key, fixed(source, 65536));
    case "fixed 1 MiB": return bucket.put(key, fixed(source, 1 << 20));
    case "yielding 64 KiB": return bucket.put(key, yielding(source, 65536));
    case "yielding 256 KiB": return bucket.put(key, yielding(source, 262144));
    case "yielding 1 MiB": return bucket.put(key, yielding(source, 1 << 20));
    case "timer ahead 256 KiB": return bucket.put(key, ahead(source, 262144));
    case "yielding 256 KiB when stalled": return bucket.put(key, yielding(source, 262144, true));
    case "response body": return bucket.put(key, new Response(source).body);
    case "uint8array + md5": {
      const md5 = await crypto.subtle.digest("MD5", source);
      return bucket.put(key, source, { md5 });
    }
    case "uint8array + sha256": {
      const sha256 = await crypto.subtle.digest("SHA-256", source);
      return bucket.put(key, source, { sha256 });
    }
    case "multipart 1 part": {
      const upload = await bucket.createMultipartUpload(key);
      const part = await upload.uploadPart(1, source);
      return upload.complete([part]);
    }
  }
  throw new Error("unknown shape " + shape);
}
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get("n") ?? 1);
    const size = Number(url.searchParams.get("size") ?? 0);
    const op = url.searchParams.get("op");
    const shape = url.searchParams.get("shape");
    if (op === "noop") return new Response("ok");
    if (op === "prepare") { data(size); await env.FILES.put("read-me", data(size)); return new Response("ok"); }
    if (op === "burst") {
      const started = Date.now();
      await Promise.all(Array.from({ length: n }, (_, i) => putShape(env.FILES, "b" + i, shape, data(size))));
      return Response.json([Date.now() - started]);
    }
    const times = [];
    for (let i = 0; i < n; i++) {
      const started = Date.now();
      if (op === "put") await putShape(env.FILES, "k" + (i % 4), shape, data(size));
      else if (op === "get-arraybuffer") await (await env.FILES.get("read-me")).arrayBuffer();
      else if (op === "get-post") {
        const object = await env.FILES.get("read-me");
        const answer = await fetch(url.searchParams.get("sink"), { method: "POST", body: object.body });
        await answer.arrayBuffer();
      } else if (op === "get-response") {
        const object = await env.FILES.get("read-me");
        return new Response(object.body, { headers: { "Content-Length": String(object.size) } });
      }
      times.push(Date.now() - started);
    }
    return Response.json(times);
  },
};
`;

/** CPU nanoseconds used so far by every thread of `pid`. */
function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended
    }
  }
  return total;
}

/** The workerd process Miniflare started (a child of this process). */
function workerdPid(): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "workerd")
        return Number(entry);
    } catch {
      // gone
    }
  }
  throw new Error("workerd not found");
}

// A sink for the converter-like reads: reads the whole body, answers "ok".
const sink = createServer((request, response) => {
  request.on("data", () => undefined);
  request.on("end", () => response.end("ok"));
});
await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
const sinkAddress = sink.address();
const sinkUrl = `http://127.0.0.1:${typeof sinkAddress === "object" && sinkAddress ? sinkAddress.port : 0}/`;

const persist = join(benchStateRoot(), `r2-body-shapes-${process.pid}`);
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: true,
    script: WORKER,
    compatibilityDate: "2025-09-01",
    compatibilityFlags: ["nodejs_compat"],
    r2Buckets: ["FILES"],
    r2Persist: persist,
  }),
);
try {
  const base = await mf.ready;
  const pid = workerdPid();
  const call = async (query: string): Promise<{ cpuMs: number; wallMs: number }> => {
    const cpu = cpuNs(pid);
    const started = performance.now();
    const response = await fetch(new URL(`/?${query}`, base));
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${query}: ${response.status}`);
    return { cpuMs: (cpuNs(pid) - cpu) / 1e6, wallMs: performance.now() - started };
  };
  await call(`op=prepare&size=${SIZE}`);
  for (let i = 0; i < 10; i++) await call("op=noop");
  let noop = 0;
  for (let i = 0; i < 20; i++) noop += (await call("op=noop")).cpuMs / 20;

  const shapes = [
    "uint8array",
    "arraybuffer",
    "blob",
    "fixed 16 KiB",
    "fixed 64 KiB",
    "fixed 1 MiB",
    "yielding 64 KiB",
    "yielding 256 KiB",
    "yielding 1 MiB",
    "yielding 256 KiB when stalled",
    "timer ahead 256 KiB",
    "response body",
    "uint8array + md5",
    "uint8array + sha256",
    "multipart 1 part",
  ];
  const reads = [
    ["get → arrayBuffer (edge)", "op=get-arraybuffer"],
    ["get → POST body (converter)", `op=get-post&sink=${encodeURIComponent(sinkUrl)}`],
  ] as const;
  console.log(
    `# R2 on Miniflare, ${(SIZE / 1024 / 1024).toFixed(2)} MiB × ${N} per row, state in ${persist}; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`(a request doing nothing: ${noop.toFixed(2)} ms of workerd CPU, subtracted)`);
  console.log("| operation | workerd CPU per op | wall per op | MB/s of CPU |");
  console.log("|---|---|---|---|");
  const row = (label: string, r: { cpuMs: number; wallMs: number }, count: number) => {
    const cpu = (r.cpuMs - noop) / count;
    console.log(
      `| ${label} | ${cpu.toFixed(1)} ms | ${(r.wallMs / count).toFixed(1)} ms | ${(SIZE / 1e6 / (cpu / 1000)).toFixed(0)} |`,
    );
  };
  for (const shape of shapes) {
    await call(`op=put&n=2&size=${SIZE}&shape=${encodeURIComponent(shape)}`); // warm up
    row(`put ${shape}`, await call(`op=put&n=${N}&size=${SIZE}&shape=${encodeURIComponent(shape)}`), N);
  }
  for (const [label, query] of reads) {
    await call(`${query}&n=2`);
    row(label, await call(`${query}&n=${N}`), N);
  }
  // A download: one request per read (the body goes to this process).
  let total = { cpuMs: 0, wallMs: 0 };
  for (let i = 0; i < N; i++) {
    const one = await call("op=get-response&n=1");
    total = { cpuMs: total.cpuMs + one.cpuMs, wallMs: total.wallMs + one.wallMs };
  }
  row("get → response body (download)", { cpuMs: total.cpuMs - noop * (N - 1), wallMs: total.wallMs }, N);
  console.log("\n| K puts at once | shape | wall | noop requests meanwhile | noop p50 | p95 | max |");
  console.log("|---|---|---|---|---|---|---|");
  for (const k of [1, 8, 16]) {
    for (const shape of [
      "uint8array",
      "fixed 64 KiB",
      "yielding 64 KiB",
      "yielding 256 KiB",
      "yielding 1 MiB",
      "yielding 256 KiB when stalled",
      "timer ahead 256 KiB",
    ]) {
      let done = false;
      const latencies: number[] = [];
      const probe = (async () => {
        while (!done) {
          const started = performance.now();
          await (await fetch(new URL("/?op=noop", base))).arrayBuffer();
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const wall = await call(`op=burst&n=${k}&size=${SIZE}&shape=${encodeURIComponent(shape)}`);
      done = true;
      await probe;
      latencies.sort((a, b) => a - b);
      const at = (p: number) =>
        (latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0).toFixed(0);
      console.log(
        `| ${k} | ${shape} | ${wall.wallMs.toFixed(0)} ms | ${latencies.length} | ${at(0.5)} ms | ${at(0.95)} ms | ${latencies.at(-1)?.toFixed(0)} ms |`,
      );
    }
  }
  console.log(`load after: ${loadavg()[0]?.toFixed(2)}`);
} finally {
  await mf.dispose();
  sink.close();
  rmSync(persist, { recursive: true, force: true });
}
