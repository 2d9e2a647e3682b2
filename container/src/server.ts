/**
 * The converter service (contract/converter.ts): a Hono app on Node that admits each job from its
 * declared size before reading it, streams its inputs into a per-job temporary directory, and runs
 * the conversion in a pooled child process (runner-pool.ts) under a time and memory limit. File
 * names and contents are never logged; engine messages go to the log with the request id only.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import {
  AppError,
  CONVERTER_HEALTH_PATH,
  CONVERTER_HEARTBEAT_MS,
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  CONVERTER_SECRET_HEADER,
  type ContainerToolId,
  type ErrorBody,
  type HealthResponse,
  type InspectPdfResponse,
  jobRequestSchema,
  sniffFileKind,
} from "../../contract/index.ts";
import { isContainerToolId } from "./container-tools.ts";
import { JobDirs } from "./job-dirs.ts";
import {
  declaredLength,
  inspectPassword,
  MAX_INSPECT_BYTES,
  maxJobBytes,
  receiveBody,
  receiveJob,
} from "./job-input.ts";
import type { RunnerTask, TaskResult } from "./job-protocol.ts";
import { errorResponse, jobResponse } from "./job-response.ts";
import { resolveLimits } from "./limits.ts";
import { type Admission, type PoolLimits, RunnerPool } from "./runner-pool.ts";

export interface ConverterOptions extends Partial<PoolLimits> {
  /** Listen address; default 127.0.0.1 (the container sets 0.0.0.0 explicitly). */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Every request but the health check must carry it in X-Converter-Secret. */
  readonly secret: string;
  /** Receives one line per job and runner event; default: unexpected failures only, on stderr. */
  readonly log?: (line: string) => void;
  /**
   * Also log one line per finished job: tool, status, and times — from the request to the result
   * (upload to disk included, response streaming not), the runner round trip (IPC and reading
   * and writing the job's files included), and the engine alone.
   */
  readonly logJobs?: boolean;
  /** A job stream's heartbeat period (CONVERTER_HEARTBEAT_MS; tests shorten it). */
  readonly heartbeatMs?: number;
}

export interface RunningConverter {
  readonly url: string;
  readonly limits: PoolLimits;
  /** The directory holding this converter's job directories. */
  readonly jobsRoot: string;
  /** The runners' process ids (tests kill them to simulate a crash). */
  readonly runnerPids: () => number[];
  /**
   * Stops accepting connections, waits up to `graceMs` (default 0) for admitted jobs to finish
   * and their responses to be written, then drops open connections and stops the runners.
   */
  close(graceMs?: number): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestId(c: Context): string {
  const given = c.req.header("X-Request-Id");
  return given !== undefined && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** Constant-time comparison (of digests, so the lengths match too). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const BUSY: ErrorBody = { code: "CONVERTER_BUSY", message: "The converter is busy; retry later." };

export function createConverterApp(
  pool: RunnerPool,
  dirs: JobDirs,
  secret: string,
  log: (line: string) => void,
  logJobs: boolean,
  heartbeatMs = CONVERTER_HEARTBEAT_MS,
): Hono {
  const app = new Hono();

  /** Runs a task in the pool; logs failures (with the engine's text) and, when asked, timings. */
  function run(
    id: string,
    label: string,
    admission: Admission,
    task: RunnerTask,
    received: number,
    signal: AbortSignal,
  ) {
    return async (onProgress: (percent: number) => void): Promise<TaskResult> => {
      const outcome = await admission.run(task, onProgress, signal);
      const { result } = outcome;
      if (
        !result.ok &&
        (result.detail !== undefined || ["INTERNAL", "JOB_INTERRUPTED"].includes(result.error.code))
      ) {
        log(
          `${label} failed ${result.error.code} request_id=${id}${result.detail ? ` ${result.detail}` : ""}`,
        );
      }
      if (logJobs) {
        const status = result.ok ? "ok" : result.error.code;
        const ms = (value: number) => `${value.toFixed(1)}ms`;
        const times = `request=${ms(performance.now() - received)} runner=${ms(outcome.totalMs)} engine=${ms(outcome.engineMs)}`;
        log(`${label} ${status} ${times} request_id=${id}`);
      }
      return result;
    };
  }

  /** Admission from the declared size, then a fresh directory for the job's files. */
  async function admitJob(c: Context, limit: number) {
    const length = declaredLength(c.req.raw, limit);
    const admission = pool.admit(length);
    if (admission === null) throw new AppError(BUSY.code, BUSY.message);
    let dir: string;
    try {
      dir = await dirs.make();
    } catch (error) {
      admission.release();
      throw error;
    }
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      admission.release();
      void dirs.remove(dir);
    };
    return { admission, dir, length, finish };
  }

  function failed(error: unknown, id: string, label: string): Response {
    if (error instanceof AppError) return errorResponse(error.toBody(), id);
    log(
      `${label} failed INTERNAL request_id=${id} ${error instanceof Error ? error.message : String(error)}`,
    );
    return errorResponse({ code: "INTERNAL", message: "The converter failed." }, id);
  }

  // Answered by this process alone (never by a runner), so a wedged runner cannot slow it.
  app.get(CONVERTER_HEALTH_PATH, (c) =>
    c.json({
      ok: true as const,
      running: pool.running,
      capacity: pool.limits.concurrency,
      runners: pool.counts(),
    } satisfies HealthResponse),
  );

  app.use("*", async (c, next) => {
    const given = c.req.header(CONVERTER_SECRET_HEADER);
    if (given === undefined || !sameSecret(given, secret)) {
      const message =
        given === undefined ? "The converter secret is missing." : "The converter secret is wrong.";
      return errorResponse({ code: "ORIGIN_FORBIDDEN", message }, requestId(c));
    }
    await next();
  });

  app.post(`${CONVERTER_JOB_PATH}/:tool`, async (c) => {
    const received = performance.now();
    const id = requestId(c);
    const parsed = jobRequestSchema.safeParse({ tool: c.req.param("tool") });
    if (!parsed.success) return errorResponse({ code: "BAD_REQUEST", message: "Unknown tool." }, id);
    const tool: string = parsed.data.tool;
    if (!isContainerToolId(tool)) {
      return errorResponse(
        { code: "TOOL_NOT_AVAILABLE", message: "The converter does not run this tool." },
        id,
      );
    }
    let job: Awaited<ReturnType<typeof admitJob>> | undefined;
    try {
      job = await admitJob(c, maxJobBytes(tool));
      const { options, files } = await receiveJob(c.req.raw, tool as ContainerToolId, job.dir);
      const task: RunnerTask = { type: "job", tool, options, files, dir: job.dir };
      return await jobResponse(
        id,
        run(id, tool, job.admission, task, received, c.req.raw.signal),
        job.finish,
        heartbeatMs,
      );
    } catch (error) {
      job?.finish();
      return failed(error, id, tool);
    }
  });

  app.post(CONVERTER_INSPECT_PDF_PATH, async (c) => {
    const received = performance.now();
    const id = requestId(c);
    let job: Awaited<ReturnType<typeof admitJob>> | undefined;
    try {
      job = await admitJob(c, MAX_INSPECT_BYTES);
      const path = join(job.dir, "in-0");
      if (sniffFileKind(await receiveBody(c.req.raw, job.length, path)) !== "pdf") {
        throw new AppError("UNSUPPORTED_FILE_TYPE", "The body is not a PDF.");
      }
      const task: RunnerTask = { type: "inspect-pdf", path, password: inspectPassword(c.req.raw) };
      const result = await run(id, "inspect-pdf", job.admission, task, received, c.req.raw.signal)(() => {});
      if (!result.ok) return errorResponse(result.error, id);
      if (!("pages" in result)) return errorResponse({ code: "INTERNAL", message: "No page count." }, id);
      return c.json({ pages: result.pages, repaired: result.repaired } satisfies InspectPdfResponse);
    } catch (error) {
      return failed(error, id, "inspect-pdf");
    } finally {
      job?.finish();
    }
  });

  app.notFound((c) => errorResponse({ code: "BAD_REQUEST", message: "Unknown path." }, requestId(c)));
  app.onError((error, c) => failed(error, requestId(c), "request"));
  return app;
}

/** Starts the runners, then the HTTP server; resolves once both accept work. */
export async function startConverter(options: ConverterOptions): Promise<RunningConverter> {
  if (!options.secret) throw new Error("The converter needs a secret (CONVERTER_SECRET).");
  const log = options.log ?? ((line: string) => console.error(line));
  const limits = resolveLimits(options);
  const pool = new RunnerPool(limits, log);
  try {
    await pool.start();
  } catch (error) {
    await pool.close();
    throw error;
  }
  let dirs: JobDirs;
  try {
    dirs = await JobDirs.create();
  } catch (error) {
    await pool.close();
    throw error;
  }
  const app = createConverterApp(
    pool,
    dirs,
    options.secret,
    log,
    options.logJobs ?? false,
    options.heartbeatMs,
  );
  const host = options.host ?? "127.0.0.1";
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve, reject) => {
      const started = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 8080 }, (info) =>
        resolve({ server: started, port: info.port }),
      );
      started.once("error", reject);
    },
  );
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    limits,
    jobsRoot: dirs.root,
    runnerPids: () => pool.pids,
    async close(graceMs = 0) {
      let closed = false;
      const whenClosed = new Promise<void>((resolve) =>
        server.close(() => {
          closed = true;
          resolve();
        }),
      );
      const deadline = Date.now() + graceMs;
      const pause = () => new Promise((r) => setTimeout(r, 25));
      // Admissions end when a response has been written to the end; connections then go idle.
      while (pool.admitted > 0 && Date.now() < deadline) await pause();
      while (!closed && Date.now() < deadline) {
        if ("closeIdleConnections" in server) server.closeIdleConnections();
        await pause();
      }
      if ("closeAllConnections" in server) server.closeAllConnections();
      await whenClosed;
      await pool.close();
      await dirs.close();
    },
  };
}
