import { z } from "zod";
import { toolIdSchema } from "./api.ts";
import { type ByteReader, byteReader, LARGE_READ_BYTES } from "./byte-reader.ts";
import { errorBodySchema } from "./errors.ts";
import { FILE_KINDS, type FileKind } from "./file-kinds.ts";

/**
 * The converter protocol (Worker → container). Every path but the health check needs the shared
 * secret in `X-Converter-Secret`.
 *
 * A job is `POST /v1/jobs/{toolId}` with Content-Length and a job stream as body: frames, each a
 * JSON header line ended by "\n", file frames followed by exactly `size` raw bytes. Request:
 * `{"type":"job","options":{…},"files":N}` (options already valid for the tool's schema), then N
 * `{"type":"file","name":…,"kind":…,"size":…}` + bytes (the files of a tool's extra file fields come
 * after its main files, each frame with its `"field"`; `files` counts them too). Refusals before the job runs are the error
 * envelope with the code's status. Otherwise 200 `application/x-converter-stream`:
 * `{"type":"progress","percent":n}` frames, then each output as
 * `{"type":"file","index":i,"kind":…,"size":N}` + bytes, then `{"type":"done","facts":{…}}`;
 * a failure after the 200 started is `{"type":"error","error":{code,message,context}}`.
 */
export const CONVERTER_JOB_PATH = "/v1/jobs";
export const CONVERTER_STREAM_TYPE = "application/x-converter-stream";
export const CONVERTER_SECRET_HEADER = "X-Converter-Secret";

/**
 * `POST /v1/inspect/pdf` with the PDF as body (Content-Length) answers the page count; a protected
 * PDF's password, when the user gave one, travels percent-encoded in `X-Pdf-Password`.
 */
export const CONVERTER_INSPECT_PDF_PATH = "/v1/inspect/pdf";
export const CONVERTER_PASSWORD_HEADER = "X-Pdf-Password";
export const inspectPdfResponseSchema = z.object({
  pages: z.number().int().nonnegative(),
  /** MuPDF rebuilt the cross-reference table to open it. */
  repaired: z.boolean(),
});
export type InspectPdfResponse = z.infer<typeof inspectPdfResponseSchema>;

export const CONVERTER_HEALTH_PATH = "/healthz";
export const healthResponseSchema = z.object({
  ok: z.literal(true),
  running: z.number().int(),
  capacity: z.number().int(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const jobFactsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type JobFacts = z.infer<typeof jobFactsSchema>;

export const jobRequestSchema = z.object({ tool: toolIdSchema });

/** Longest header line either side accepts: a frame header is a short JSON object. */
export const MAX_FRAME_HEADER_BYTES = 64 * 1024;

const fileKindSchema = z.enum(Object.keys(FILE_KINDS) as [FileKind, ...FileKind[]]);
const size = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

export const jobFrameSchema = z.object({
  type: z.literal("job"),
  options: z.record(z.string(), z.unknown()),
  files: z.number().int().nonnegative(),
});
export const inputFileFrameSchema = z.object({
  type: z.literal("file"),
  name: z.string().max(1024),
  kind: fileKindSchema,
  size,
  /** The tool's extra file field it belongs to (ToolInput.extraFiles); absent for a main file. */
  field: z.string().min(1).max(64).optional(),
});
export type InputFileFrame = z.infer<typeof inputFileFrameSchema>;

export const outputFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("progress"), percent: z.number().int().min(0).max(100) }),
  z.object({
    type: z.literal("file"),
    index: z.number().int().nonnegative(),
    kind: fileKindSchema,
    size,
    /** Download name the engine chose, if any. */
    name: z.string().max(1024).optional(),
  }),
  z.object({ type: z.literal("done"), facts: jobFactsSchema }),
  z.object({ type: z.literal("error"), error: errorBodySchema }),
]);
export type OutputFrame = z.infer<typeof outputFrameSchema>;

const encoder = new TextEncoder();

/** A frame's header line. */
export function encodeFrame(header: object): Uint8Array {
  return encoder.encode(`${JSON.stringify(header)}\n`);
}

/** One input of a job stream, opened only when the stream reaches it. */
export interface JobStreamFile {
  readonly name: string;
  readonly kind: FileKind;
  readonly size: number;
  /** The extra file field it belongs to; absent for a main file. */
  readonly field?: string | undefined;
  /** Its bytes and their length as the source knows it (an R2 object's size), checked against `size`. */
  open(): Promise<{ readonly body: ReadableStream<Uint8Array>; readonly size: number }>;
}

function jobHeaders(options: unknown, files: readonly JobStreamFile[]): Uint8Array[] {
  return [
    encodeFrame({ type: "job", options, files: files.length }),
    ...files.map(({ name, kind, size, field }) => encodeFrame({ type: "file", name, kind, size, field })),
  ];
}

/** The exact length of a job stream (sent as Content-Length). */
export function jobStreamLength(options: unknown, files: readonly JobStreamFile[]): number {
  const headers = jobHeaders(options, files);
  return headers.reduce((sum, header) => sum + header.length, 0) + files.reduce((sum, f) => sum + f.size, 0);
}

/**
 * Writes a job request body into `writable` and closes it: each header line through a writer, each
 * file piped from its source. Between a runtime's own streams (an R2 body into a FixedLengthStream
 * in workerd) the pipe moves the bytes natively, in large chunks, with no JavaScript call per 4 KB
 * chunk: a 3 MB PDF reached the converter in 17–38 ms instead of 50–209 ms. A file whose source
 * length differs from its announced size stops the stream (the writable is aborted), so the frames
 * can never shift; the writable itself must hold the total to `jobStreamLength`.
 */
export async function writeJobStream(
  writable: WritableStream<Uint8Array>,
  options: unknown,
  files: readonly JobStreamFile[],
): Promise<void> {
  const [head, ...headers] = jobHeaders(options, files);
  const write = async (bytes: Uint8Array | undefined) => {
    const writer = writable.getWriter();
    try {
      await writer.write(bytes ?? new Uint8Array(0));
    } finally {
      writer.releaseLock();
    }
  };
  try {
    await write(head);
    for (const [i, file] of files.entries()) {
      await write(headers[i]);
      const source = await file.open();
      if (source.size !== file.size) {
        await source.body.cancel();
        throw new Error(`A job input is ${source.size > file.size ? "longer" : "shorter"} than announced`);
      }
      await source.body.pipeTo(writable, { preventClose: true });
    }
    await writable.close();
  } catch (error) {
    await writable.abort(error).catch(() => undefined);
    throw error;
  }
}

/** The stream ended or broke before a frame was complete. */
export class TruncatedStreamError extends Error {
  constructor(message = "The stream ended inside a frame") {
    super(message);
    this.name = "TruncatedStreamError";
  }
}

/**
 * Reads a job stream frame by frame: `header()` gives the next header line parsed as JSON (null
 * at the end of the stream), and after a file header `body(size)` gives exactly its bytes, which
 * must be read to the end before the next `header()`. File bytes are read in large pieces where
 * the runtime can gather them (contract/byte-reader.ts); headers as soon as any byte arrives, so a
 * progress frame is never held back.
 */
export class FrameReader {
  readonly #reader: ByteReader;
  #buffer: Uint8Array = new Uint8Array(0);
  #ended = false;
  #broken = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = byteReader(stream);
  }

  /** The source ended or failed (a connection lost mid-stream, when a frame was still expected). */
  get sourceGone(): boolean {
    return this.#ended || this.#broken;
  }

  async #fill(min = 1): Promise<boolean> {
    if (this.#ended) return false;
    let next: Uint8Array | null;
    try {
      next = await this.#reader.read(min);
    } catch (error) {
      this.#broken = true;
      throw error;
    }
    if (next === null) {
      this.#ended = true;
      return false;
    }
    this.#buffer = this.#buffer.length === 0 ? next : concat(this.#buffer, next);
    return true;
  }

  async header(): Promise<unknown> {
    let searched = 0;
    for (;;) {
      const end = this.#buffer.indexOf(0x0a, searched);
      if (end >= 0) {
        const line = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
          this.#buffer.subarray(0, end),
        );
        this.#buffer = this.#buffer.subarray(end + 1);
        return JSON.parse(line);
      }
      searched = this.#buffer.length;
      if (searched > MAX_FRAME_HEADER_BYTES) throw new SyntaxError("A frame header is too long");
      if (!(await this.#fill())) {
        if (this.#buffer.length === 0) return null;
        throw new TruncatedStreamError();
      }
    }
  }

  /** The next `size` bytes as a stream; it errors with TruncatedStreamError when they are missing. */
  body(size: number): ReadableStream<Uint8Array<ArrayBuffer>> {
    let left = size;
    return new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull: async (controller) => {
        if (left === 0) {
          controller.close();
          return;
        }
        if (this.#buffer.length === 0 && !(await this.#fill(Math.min(left, LARGE_READ_BYTES)))) {
          controller.error(new TruncatedStreamError());
          return;
        }
        const take = Math.min(left, this.#buffer.length);
        controller.enqueue(this.#buffer.slice(0, take));
        this.#buffer = this.#buffer.subarray(take);
        left -= take;
        if (left === 0) controller.close();
      },
    });
  }

  async cancel(reason?: unknown): Promise<void> {
    await this.#reader.cancel(reason).catch(() => undefined);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}
