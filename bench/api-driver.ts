/**
 * What the API benchmarks share: the real stack (converter + `wrangler dev`, scripts/stack.ts) on
 * ports of their own, optionally with the rate limits raised through a temporary wrangler config
 * (the shipped wrangler.toml is not touched), and a client that drives the API as the page does:
 * CSRF pair, multipart upload, then waiting status requests until SUCCESS or FAILURE. With
 * `BENCH_STACK_LOGS=1` the stack prints its logs (the converter names each job and its error).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { Agent, setGlobalDispatcher } from "undici";
import {
  API_PATHS,
  CSRF_COOKIE,
  CSRF_HEADER,
  csrfTokenResponseSchema,
  STATUS_MAX_WAIT_SECONDS,
  statusPath,
  type TaskStatus,
  type TaskType,
  TOOLS,
  taskStartResponseSchema,
  taskStatusSchema,
} from "../contract/index.ts";
import { buildClient, ROOT, type Stack, startStack } from "../scripts/stack.ts";

/**
 * How long the benchmarks' fetch keeps an idle connection for reuse. workerd closes a keep-alive
 * connection 5 s after its last answer (measured: a second request after 4.5 s is answered, after
 * 5.5 s the connection is gone; not configurable, and it drops a Keep-Alive header the Worker sets),
 * while Node's fetch keeps one 4 s: under load a request sent on a connection workerd is closing is
 * reset (read ECONNRESET, or EPIPE during an upload). Those were the "fetch failed" of bench:load
 * (status requests and uploads; 25 of 128 in two bursts of 64 3.4 MB merges at load 10–13, 0 of 128
 * with 1 s; at load 17–21 some remain, when workerd's thread is held up until its timer is due).
 * A browser sends such a request again by itself; a Node client has to keep under the server's idle
 * time. Resets still count as failures ("no answer") in every benchmark.
 */
export const CLIENT_KEEP_ALIVE_MS = 1000;
setGlobalDispatcher(
  new Agent({ keepAliveTimeout: CLIENT_KEEP_ALIVE_MS, keepAliveMaxTimeout: CLIENT_KEEP_ALIVE_MS }),
);

/**
 * Where a benchmark's stack keeps its local R2 and Durable Object state, thrown away after the run:
 * `BENCH_STATE_DIR` when set, else memory (/dev/shm) where there is one, else the temp folder.
 * Locally each Durable Object write (a task's states and alarms), each rate-limit count and each
 * R2 object's metadata is a SQLite commit that workerd's one thread waits for with fsync before it
 * serves the next request; on the shared machine's disk a burst of 64 merges made 500+ fsyncs in
 * 10 s, 3 s of that thread's time (strace). Deployed, Durable Object storage never blocks the
 * Worker's thread on a disk, so on disk the benchmarks measured the local disk as much as the
 * Worker (bench:load, README "Health and the local disk"); `BENCH_STATE_DIR=/tmp` measures that.
 */
export function benchStateRoot(): string {
  const named = process.env.BENCH_STATE_DIR;
  if (named !== undefined && named !== "") return named;
  return existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
}

export interface BenchStackOptions {
  /** Lifts both per-client limits for the run (load tests start hundreds of tasks a minute). */
  readonly raiseLimits: boolean;
}

/** wrangler.toml with every `[[ratelimits]]` limit lifted, written beside it for the run. */
export function raisedLimitsConfig(): string {
  const shipped = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const raised = shipped.replace(
    /simple = \{ limit = \d+, period = (\d+) \}/g,
    "simple = { limit = 1000000, period = $1 }",
  );
  if (raised === shipped) throw new Error("no [[ratelimits]] limit found in wrangler.toml");
  // One per process: two benchmarks (or a benchmark and the wide-corpus test) may run at once.
  const file = join(ROOT, `.bench-wrangler-${process.pid}.toml`);
  writeFileSync(file, raised);
  return file;
}

/** Starts the stack (building the client first when dist/client is missing), runs `body`, stops it. */
export async function withStack<T>(
  options: BenchStackOptions,
  body: (url: string, stack: Stack) => Promise<T>,
): Promise<T> {
  if (!existsSync(join(ROOT, "dist/client/index.html"))) await buildClient();
  const persistTo = mkdtempSync(join(benchStateRoot(), "bench-state-"));
  const wranglerConfig = options.raiseLimits ? raisedLimitsConfig() : undefined;
  const port = 18_000 + Math.floor(Math.random() * 500) * 2;
  try {
    const stack = await startStack({
      port,
      converterPort: port + 1,
      persistTo,
      quiet: process.env.BENCH_STACK_LOGS === undefined,
      wranglerConfig,
    });
    try {
      return await body(stack.url, stack);
    } finally {
      await stack.stop();
    }
  } finally {
    if (wranglerConfig !== undefined) rmSync(wranglerConfig, { force: true });
    rmSync(persistTo, { recursive: true, force: true });
  }
}

export interface TaskRun {
  readonly status: TaskStatus;
  /** From the start of the upload to the client seeing SUCCESS or FAILURE. */
  readonly totalMs: number;
  /** From the start of the upload to the 202 with the task id. */
  readonly startMs: number;
  /** Every state the client saw, in order, with the time since the upload started. */
  readonly states: readonly (readonly [TaskStatus["state"], number])[];
}

/** An API answer that is not JSON (a proxy's or runtime's own page): the client cannot read it. */
export class NonJsonAnswer extends Error {
  readonly status: number;
  constructor(status: number, text: string) {
    super(`non-JSON ${status}: ${text.slice(0, 80).replaceAll("\n", " ")}`);
    this.status = status;
  }
}

/**
 * A request that got no answer (a reset connection…): which request, and the socket's error code.
 * `at` (wall clock) and `afterMs` (since the request was sent) tell a request sent on a connection
 * the server had just closed (a few ms) from one dropped while waiting (seconds), and group resets
 * in time (bench:load prints them).
 */
export class NoAnswer extends Error {
  readonly at = new Date().toISOString();
  readonly afterMs: number;
  readonly request: string;
  constructor(request: "upload" | "status", error: unknown, sentAt = performance.now()) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    super(`${request}: ${cause?.code ?? cause?.message ?? String(error)}`.slice(0, 60));
    this.afterMs = performance.now() - sentAt;
    this.request = request;
  }
}

/** An API answer that is JSON but not the one expected (an error envelope), with its Retry-After. */
export class ErrorAnswer extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryAfter: string | null;
  constructor(status: number, body: unknown, retryAfter: string | null) {
    // The body stays in the message: the sweep reads the code from it.
    super(`answered ${status}: ${JSON.stringify(body)}`);
    this.status = status;
    this.code = (body as { error?: { code?: string } } | null)?.error?.code ?? "?";
    this.retryAfter = retryAfter;
  }
}

/** The body of an API answer, which must be JSON whatever its status; `expected` else ErrorAnswer. */
export async function apiJson(response: Response, expected: number): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get("Content-Type") ?? "").includes("application/json"))
    throw new NonJsonAnswer(response.status, text);
  const body: unknown = JSON.parse(text);
  if (response.status !== expected)
    throw new ErrorAnswer(response.status, body, response.headers.get("Retry-After"));
  return body;
}

/** One browser-like client of the API. */
export class BenchClient {
  readonly base: string;
  #token: string | undefined;

  constructor(base: string) {
    this.base = base;
  }

  async #csrf(): Promise<string> {
    if (this.#token !== undefined) return this.#token;
    const response = await fetch(new URL(API_PATHS.csrfToken, this.base));
    this.#token = csrfTokenResponseSchema.parse(await apiJson(response, 200)).csrf_token;
    return this.#token;
  }

  /** Uploads a task and follows it to its end as the page does. */
  async run(path: string, type: TaskType, form: FormData): Promise<TaskRun> {
    const token = await this.#csrf();
    const started = performance.now();
    const response = await fetch(new URL(path, this.base), {
      method: "POST",
      body: form,
      headers: { Cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: token },
    }).catch((error: unknown) => {
      throw new NoAnswer("upload", error, started);
    });
    const { task_id } = taskStartResponseSchema.parse(await apiJson(response, 202));
    const startMs = performance.now() - started;
    const states: [TaskStatus["state"], number][] = [];
    let since: number | undefined;
    for (;;) {
      const query = since === undefined ? "" : `?since=${since}&wait=${STATUS_MAX_WAIT_SECONDS}`;
      const sent = performance.now();
      const answer = await fetch(new URL(`${statusPath(type, task_id)}${query}`, this.base)).catch(
        (error: unknown) => {
          throw new NoAnswer("status", error, sent);
        },
      );
      const status = taskStatusSchema.parse(await apiJson(answer, 200));
      if (states.at(-1)?.[0] !== status.state) states.push([status.state, performance.now() - started]);
      if (status.state === "SUCCESS" || status.state === "FAILURE") {
        return { status, totalMs: performance.now() - started, startMs, states };
      }
      since = status.revision;
    }
  }
}

/** The value below which `p` of the sorted values lie (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
}

export const median = (values: readonly number[]) => percentile(values, 0.5);

/** A form with files under `field` and text fields, as the page sends it. */
export function taskForm(
  field: string,
  files: readonly { name: string; bytes: Uint8Array; type: string }[],
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const file of files)
    form.append(field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

/** A PNG of `width` × `height` with a gradient (so it does not compress to nothing). */
export async function gradientPng(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const x = i % width;
    const y = Math.floor(i / width);
    pixels.set([(x * 7) & 255, (y * 5) & 255, ((x ^ y) * 3) & 255], i * 3);
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

/** Two one-page PDFs merged through the API (the latency and load benchmarks' PDF task). */
export function mergeTwoPdfs(client: BenchClient, pdfs: readonly Uint8Array[]): Promise<TaskRun> {
  const files = pdfs.map((bytes, i) => ({ name: `${i}.pdf`, bytes, type: "application/pdf" }));
  return client.run(TOOLS["merge-pdf"].endpoint.path, "pdf", taskForm("files", files));
}

/** A PNG converted to JPG through the API (edge within the budget, converter above it). */
export function pngToJpg(client: BenchClient, png: Uint8Array): Promise<TaskRun> {
  const form = taskForm("file", [{ name: "a.png", bytes: png, type: "image/png" }], { target_format: "jpg" });
  return client.run(API_PATHS.imageConvert, "image", form);
}
