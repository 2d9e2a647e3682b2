/**
 * The converter service (contract/converter.ts): a Hono app on Node that validates each request in
 * this process and runs the conversion in a pooled child process (runner-pool.ts) under a time and
 * memory limit. File names and contents are never logged.
 */
import { serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import {
  AppError,
  CONVERTER_FACTS_HEADER,
  CONVERTER_HEALTH_PATH,
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  type ErrorBody,
  type ErrorEnvelope,
  errorStatus,
  FILE_KINDS,
  type JobFacts,
  jobRequestSchema,
  SNIFF_BYTES,
  sniffFileKind,
  TOOLS,
} from "../../contract/index.ts";
import { isContainerToolId } from "./container-tools.ts";
import { MAX_INSPECT_BYTES, readBody, readJobRequest } from "./job-input.ts";
import type { RunnerTask } from "./job-protocol.ts";
import { resolveLimits } from "./limits.ts";
import type { TaskOutcome } from "./runner.ts";
import { type PoolLimits, RunnerPool } from "./runner-pool.ts";

export interface ConverterOptions extends Partial<PoolLimits> {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Receives one line per job and runner event; default: unexpected failures only, on stderr. */
  readonly log?: (line: string) => void;
  /**
   * Also log one line per finished job: tool, status, and times — from admission to result
   * (upload and parsing included), the runner round trip (IPC included), and the engine alone.
   */
  readonly logJobs?: boolean;
}

export interface RunningConverter {
  readonly url: string;
  readonly limits: PoolLimits;
  /**
   * Stops accepting connections, waits up to `graceMs` (default 0) for admitted jobs to finish,
   * then drops open connections and stops the runners.
   */
  close(graceMs?: number): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function requestId(c: Context): string {
  const given = c.req.header("X-Request-Id");
  return given !== undefined && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

function errorResponse(error: ErrorBody, id: string): Response {
  const envelope: ErrorEnvelope = { error, request_id: id };
  return Response.json(envelope, { status: errorStatus(error.code) });
}

/** Header values must be ASCII: non-ASCII characters of the JSON are escaped. */
function factsHeader(facts: JobFacts): string {
  return JSON.stringify(facts).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The same bytes typed for a Response body (a copy only if they sit in shared memory). */
function arrayBufferView(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer
    ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
    : new Uint8Array(bytes);
}

export function createConverterApp(pool: RunnerPool, log: (line: string) => void, logJobs: boolean): Hono {
  const app = new Hono();

  /** Runs a task in the pool; the admission was taken before the body was read. */
  async function execute(
    id: string,
    label: string,
    prepare: () => Promise<RunnerTask>,
  ): Promise<TaskOutcome | Response> {
    const received = performance.now();
    const admission = pool.admit();
    if (admission === null) {
      return errorResponse({ code: "CONVERTER_BUSY", message: "The converter is busy; retry later." }, id);
    }
    try {
      const task = await prepare();
      const outcome = await admission.run(task);
      const { result } = outcome;
      if (!result.ok && (result.error.code === "INTERNAL" || result.error.code === "JOB_INTERRUPTED")) {
        log(
          `${label} failed ${result.error.code} request_id=${id}${"detail" in result ? ` ${result.detail}` : ""}`,
        );
      }
      if (logJobs) {
        const status = result.ok ? "ok" : result.error.code;
        const ms = (value: number) => `${value.toFixed(1)}ms`;
        const times = `request=${ms(performance.now() - received)} runner=${ms(outcome.totalMs)} engine=${ms(outcome.engineMs)}`;
        log(`${label} ${status} ${times} request_id=${id}`);
      }
      return outcome;
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error.toBody(), id);
      log(
        `${label} failed INTERNAL request_id=${id} ${error instanceof Error ? error.message : String(error)}`,
      );
      return errorResponse({ code: "INTERNAL", message: "The converter failed." }, id);
    } finally {
      admission.release();
    }
  }

  app.get(CONVERTER_HEALTH_PATH, (c) =>
    c.json({ ok: true as const, running: pool.running, capacity: pool.limits.concurrency }),
  );

  app.post(`${CONVERTER_JOB_PATH}/:tool`, async (c) => {
    const id = requestId(c);
    const parsed = jobRequestSchema.safeParse({ tool: c.req.param("tool") });
    if (!parsed.success) return errorResponse({ code: "BAD_REQUEST", message: "Unknown tool." }, id);
    const { tool } = parsed.data;
    if (!isContainerToolId(tool)) {
      return errorResponse(
        { code: "TOOL_NOT_AVAILABLE", message: "The converter does not run this tool." },
        id,
      );
    }
    const outcome = await execute(id, tool, async () => {
      const { fields, files } = await readJobRequest(c.req.raw, tool);
      return { type: "job", tool, fields, files };
    });
    if (outcome instanceof Response) return outcome;
    const { result } = outcome;
    if (!result.ok) return errorResponse(result.error, id);
    if (!("bytes" in result))
      return errorResponse({ code: "INTERNAL", message: "The job produced no file." }, id);
    return new Response(arrayBufferView(result.bytes), {
      status: 200,
      headers: {
        "Content-Type": FILE_KINDS[TOOLS[tool].output.kind].mime,
        "Content-Length": String(result.bytes.length),
        [CONVERTER_FACTS_HEADER]: factsHeader(result.facts),
      },
    });
  });

  app.post(CONVERTER_INSPECT_PDF_PATH, async (c) => {
    const id = requestId(c);
    const outcome = await execute(id, "inspect-pdf", async () => {
      const bytes = await readBody(c.req.raw, MAX_INSPECT_BYTES);
      if (sniffFileKind(bytes.subarray(0, SNIFF_BYTES)) !== "pdf") {
        throw new AppError("UNSUPPORTED_FILE_TYPE", "The body is not a PDF.");
      }
      return { type: "inspect-pdf", bytes };
    });
    if (outcome instanceof Response) return outcome;
    const { result } = outcome;
    if (!result.ok) return errorResponse(result.error, id);
    if (!("pages" in result)) return errorResponse({ code: "INTERNAL", message: "No page count." }, id);
    return c.json({ pages: result.pages });
  });

  app.notFound((c) => errorResponse({ code: "BAD_REQUEST", message: "Unknown path." }, requestId(c)));
  app.onError((error, c) => {
    const id = requestId(c);
    log(`request failed INTERNAL request_id=${id} ${error.message}`);
    return errorResponse({ code: "INTERNAL", message: "The converter failed." }, id);
  });
  return app;
}

/** Starts the runners, then the HTTP server; resolves once both accept work. */
export async function startConverter(options: ConverterOptions): Promise<RunningConverter> {
  const log = options.log ?? ((line: string) => console.error(line));
  const limits = resolveLimits(options);
  const pool = new RunnerPool(limits, log);
  try {
    await pool.start();
  } catch (error) {
    await pool.close();
    throw error;
  }
  const app = createConverterApp(pool, log, options.logJobs ?? false);
  const host = options.host ?? "0.0.0.0";
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
    async close(graceMs = 0) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if ("closeIdleConnections" in server) server.closeIdleConnections();
      const deadline = Date.now() + graceMs;
      while (pool.admitted > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if ("closeAllConnections" in server) server.closeAllConnections();
      await closed;
      await pool.close();
    },
  };
}
