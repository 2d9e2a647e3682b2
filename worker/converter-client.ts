import { getRandom } from "@cloudflare/containers";
import {
  AppError,
  CONVERTER_HEALTH_PATH,
  CONVERTER_HEARTBEAT_MS,
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  CONVERTER_PASSWORD_HEADER,
  CONVERTER_SECRET_HEADER,
  CONVERTER_STREAM_TYPE,
  DEFAULT_JOB_TIMEOUT_MS,
  declarationOf,
  errorEnvelopeSchema,
  FILE_KINDS,
  type FileKind,
  FrameReader,
  type HealthResponse,
  healthResponseSchema,
  type InspectPdfResponse,
  inspectPdfResponseSchema,
  type JobFacts,
  type JobStreamFile,
  jobStreamLength,
  maxJobTimeLimitMs,
  outputFrameSchema,
  StalledStreamError,
  type ToolId,
  writeJobStream,
} from "../contract/index.ts";
import { CONVERTER_INSTANCES } from "./converter-container.ts";
import type { Env } from "./env.ts";

/**
 * One job input, opened only when the request body reaches it. Its `name` is the user's file name:
 * merge titles bookmarks with it; the converter never logs it.
 */
export type ConverterInput = JobStreamFile;

/** An output file as announced by the converter, before its bytes. */
export interface ConverterFileMeta {
  readonly index: number;
  readonly kind: FileKind;
  readonly size: number;
  /** Download name the engine chose, if any. */
  readonly name?: string | undefined;
}

export interface JobHandlers {
  /** The engine's progress, 0–100, each time it changes. */
  onProgress(percent: number): void;
  /** Receives each output's bytes (exactly `meta.size`); must read `body` to the end. */
  onFile(meta: ConverterFileMeta, body: ReadableStream<Uint8Array>): Promise<void>;
}

/** The one way the Worker talks to the converter (contract/converter.ts). */
export interface ConverterClient {
  runJob(
    tool: ToolId,
    options: unknown,
    inputs: readonly ConverterInput[],
    handlers: JobHandlers,
  ): Promise<{ facts: JobFacts }>;
  /**
   * Page count of one PDF, streamed as the raw request body with its Content-Length; `password`
   * opens a protected one.
   */
  inspectPdf(pdf: ConverterInput, password?: string): Promise<InspectPdfResponse>;
  /** The converter's own health check; throws when it does not answer within `timeoutMs`. */
  health(timeoutMs: number): Promise<HealthResponse>;
}

type Transport = (path: string, init: RequestInit) => Promise<Response>;

/** Statuses a proxy or a starting container answers without an envelope: worth retrying. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

function unavailable(message: string): AppError {
  return new AppError("CONVERTER_UNAVAILABLE", message);
}

async function call(transport: Transport, path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await transport(path, init);
  } catch {
    throw unavailable("The converter could not be reached");
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => "");
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not an envelope: decided by the status below
  }
  const envelope = errorEnvelopeSchema.safeParse(parsed);
  if (envelope.success) {
    const { code, message, context } = envelope.data.error;
    throw new AppError(code, message, context);
  }
  if (UNREACHABLE_STATUSES.has(response.status)) {
    throw unavailable(`The converter answered ${response.status}`);
  }
  throw new Error(`The converter answered ${response.status} without an error envelope`);
}

/** A body of known length, so the request carries Content-Length. */
function fixedLength(body: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  const fixed = new FixedLengthStream(length);
  body.pipeTo(fixed.writable).catch(() => undefined);
  return fixed.readable;
}

/**
 * When each converter (by address: CONVERTER_URL, or "container") last sent a byte of a job's
 * answer, as this isolate saw it. A converter busy streaming jobs is up even when its health answer
 * is late: health uses this (health-route.ts) instead of calling a converter it hears from anyway.
 */
const heardAt = new Map<string, number>();

/** The address under which a converter is heard from and its health remembered. */
export function converterKey(env: Pick<Env, "CONVERTER_URL">): string {
  return env.CONVERTER_URL || "container";
}

/** Records that the converter at `key` sent something now (or at `at`). */
export function converterHeard(key: string, at = Date.now()): void {
  heardAt.set(key, Math.max(at, heardAt.get(key) ?? 0));
}

/** When the converter at `key` last sent something to this isolate; undefined if never. */
export function converterHeardAt(key: string): number | undefined {
  return heardAt.get(key);
}

/**
 * Reads the converter's answer frame by frame. A job stream that breaks or ends before its `done`
 * frame is CONVERTER_UNAVAILABLE (transient), never INTERNAL.
 */
async function readJobStream(
  response: Response,
  handlers: JobHandlers,
  silentMs: number,
  heard: () => void,
): Promise<{ facts: JobFacts }> {
  if (response.body === null || response.headers.get("Content-Type") !== CONVERTER_STREAM_TYPE) {
    throw new Error("The converter answered 200 without a job stream");
  }
  // The converter sends a frame at least every CONVERTER_HEARTBEAT_MS while the job waits or runs.
  const frames = new FrameReader(response.body, { idleMs: silentMs });
  try {
    for (let header = await frames.header(); header !== null; header = await frames.header()) {
      heard();
      const frame = outputFrameSchema.parse(header);
      if (frame.type === "heartbeat") continue;
      if (frame.type === "progress") handlers.onProgress(frame.percent);
      else if (frame.type === "file") await handlers.onFile(frame, frames.body(frame.size));
      else if (frame.type === "done") return { facts: frame.facts };
      else throw new AppError(frame.error.code, frame.error.message, frame.error.context);
    }
    throw unavailable("The converter's answer ended before the job did");
  } catch (error) {
    await frames.cancel();
    if (error instanceof AppError) throw error;
    if (error instanceof StalledStreamError)
      throw unavailable(`The converter sent nothing for ${error.idleMs / 1000} s during the job`);
    if (frames.sourceGone) throw unavailable("The connection to the converter was lost during the job");
    throw error;
  }
}

/**
 * How long the Worker waits for the converter before it counts as unavailable (the task then goes
 * back to QUEUED, is retried within its queue window, and fails with a named error at its end
 * instead of staying in PROGRESS until retention deletes it):
 * - `jobMs`, a whole job: the converter's own per-job limit (JOB_TIMEOUT_MS, 120 s by default,
 *   after which it answers JOB_TIMEOUT itself) plus 60 s to wait for a runner and move the bytes;
 *   a tool whose limit grows with its pages (OCR, contract/job-time.ts) gets the growth of its
 *   largest job on top (jobDeadlineMs), since the Worker does not count the pages;
 * - `silentMs`, silence during a job: the converter sends a frame at least every
 *   CONVERTER_HEARTBEAT_MS (5 s) once it has read the inputs, so 20 s without a byte is a stopped
 *   or cut-off converter, not a busy one. Until the answer starts, the inputs' upload time at
 *   UPLOAD_BYTES_PER_S is added;
 * - `inspectMs`, a page count, 60 s.
 */
export const CONVERTER_DEADLINES = {
  jobMs: 180_000,
  silentMs: 4 * CONVERTER_HEARTBEAT_MS,
  inspectMs: 60_000,
} as const;
export type ConverterDeadlines = {
  readonly jobMs: number;
  readonly silentMs: number;
  readonly inspectMs: number;
};

/**
 * The deadline of a job of `tool`: `jobMs`, plus what the converter's limit of the tool's largest
 * job (its maxPages) adds to the default base limit.
 */
export function jobDeadlineMs(tool: ToolId, jobMs: number): number {
  return jobMs + maxJobTimeLimitMs(declarationOf(tool)) - DEFAULT_JOB_TIMEOUT_MS;
}

/** The slowest upload to the converter still counted as progress (2 MB/s: 100 MB in 50 s). */
const UPLOAD_BYTES_PER_S = 2 * 1024 * 1024;

/** Gives up on `work` with CONVERTER_UNAVAILABLE at a deadline; `abort` cancels its request. */
type Limit = <T>(ms: number, work: Promise<T>, what: string) => Promise<T>;

/**
 * Runs `work` with an abort signal that fires after `ms` (it cancels the request and its streams);
 * the call then rejects with CONVERTER_UNAVAILABLE at once, whatever `work` is still waiting for.
 * `limit` puts a shorter deadline on one step, with the same effect.
 */
async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal, limit: Limit) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const limit: Limit = async (stepMs, step, what) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(unavailable(`The converter did not ${what} within ${stepMs / 1000} s`));
        controller.abort();
      }, stepMs);
    });
    // Whatever the abandoned step does after the deadline is of no interest.
    step.catch(() => undefined);
    try {
      return await Promise.race([step, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return limit(ms, work(controller.signal, limit), "answer");
}

/**
 * The converter protocol over any transport; `secret` goes with every request. `heard` is called
 * at each frame of a job's answer (createConverterClient records it for health).
 */
export function converterClient(
  transport: Transport,
  secret: string,
  deadlines: ConverterDeadlines = CONVERTER_DEADLINES,
  heard: () => void = () => {},
): ConverterClient {
  const auth = { [CONVERTER_SECRET_HEADER]: secret };
  return {
    runJob(tool, options, inputs, handlers) {
      return withDeadline(jobDeadlineMs(tool, deadlines.jobMs), async (signal, limit) => {
        const length = jobStreamLength(options, inputs);
        const body = new FixedLengthStream(length);
        // A failed input aborts the body, so the request fails instead of waiting for bytes.
        writeJobStream(body.writable, options, inputs).catch(() => undefined);
        const sent = call(transport, `${CONVERTER_JOB_PATH}/${tool}`, {
          method: "POST",
          headers: auth,
          body: body.readable,
          signal,
        });
        const uploadMs = Math.ceil((length / UPLOAD_BYTES_PER_S) * 1000);
        const response = await limit(deadlines.silentMs + uploadMs, sent, "start its answer");
        heard();
        return readJobStream(response, handlers, deadlines.silentMs, heard);
      });
    },

    inspectPdf(pdf, password) {
      return withDeadline(deadlines.inspectMs, async (signal) => {
        const body = fixedLength((await pdf.open()).body, pdf.size);
        const headers: Record<string, string> = { ...auth, "Content-Type": FILE_KINDS.pdf.mime };
        if (password !== undefined) headers[CONVERTER_PASSWORD_HEADER] = encodeURIComponent(password);
        const response = await call(transport, CONVERTER_INSPECT_PDF_PATH, {
          method: "POST",
          headers,
          body,
          signal,
        });
        return inspectPdfResponseSchema.parse(await response.json());
      });
    },

    async health(timeoutMs) {
      const response = await call(transport, CONVERTER_HEALTH_PATH, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      return healthResponseSchema.parse(await response.json());
    },
  };
}

/** Host name used for requests into the container (the container ignores it). */
const CONTAINER_ORIGIN = "http://converter";

/**
 * CONVERTER_URL set (local development, tests): plain fetch to that service. Otherwise the
 * converter container, spread over its instances.
 */
export function createConverterClient(
  env: Pick<Env, "CONVERTER_URL" | "CONVERTER"> & { readonly CONVERTER_SECRET?: string },
): ConverterClient {
  const url = env.CONVERTER_URL;
  const secret = env.CONVERTER_SECRET ?? "";
  const key = converterKey(env);
  const heard = () => converterHeard(key);
  if (url) {
    return converterClient(
      (path, init) => fetch(new URL(path, url), init),
      secret,
      CONVERTER_DEADLINES,
      heard,
    );
  }
  return converterClient(
    async (path, init) => {
      const container = await getRandom(env.CONVERTER, CONVERTER_INSTANCES);
      return container.fetch(new Request(new URL(path, CONTAINER_ORIGIN), init));
    },
    secret,
    CONVERTER_DEADLINES,
    heard,
  );
}
