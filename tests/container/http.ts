/** Helpers to call a running converter the way the Worker does (contract/converter.ts). */
import { expect } from "vitest";
import {
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  CONVERTER_SECRET_HEADER,
  CONVERTER_STREAM_TYPE,
  type ErrorBody,
  errorEnvelopeSchema,
  type FileKind,
  FrameReader,
  type JobFacts,
  outputFrameSchema,
  writeJobStream,
} from "../../contract/index.ts";

/** The secret the test converters are started with. */
export const TEST_SECRET = "test-only-converter-secret-0123456789";
export const AUTH = { [CONVERTER_SECRET_HEADER]: TEST_SECRET };

export interface JobFileSpec {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
  /** The tool's extra file field it goes in (e.g. sign's `signature`); absent for a main file. */
  readonly field?: string;
}

export function pdfFile(name: string, bytes: Uint8Array): JobFileSpec {
  return { name, kind: "pdf", bytes };
}

export function pngFile(name: string, bytes: Uint8Array): JobFileSpec {
  return { name, kind: "png", bytes };
}

/** A job stream body held in memory (test inputs are small). */
export async function jobBody(
  options: unknown,
  files: readonly JobFileSpec[],
): Promise<Uint8Array<ArrayBuffer>> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const written = writeJobStream(
    writable,
    options,
    files.map((file) => ({
      name: file.name,
      kind: file.kind,
      size: file.bytes.length,
      field: file.field,
      open: async () => ({ body: new Blob([new Uint8Array(file.bytes)]).stream(), size: file.bytes.length }),
    })),
  );
  const body = new Uint8Array(await new Response(readable).arrayBuffer());
  await written;
  return body;
}

export async function postJob(
  baseUrl: string,
  tool: string,
  options: unknown,
  files: readonly JobFileSpec[],
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  return fetch(`${baseUrl}${CONVERTER_JOB_PATH}/${tool}`, {
    method: "POST",
    body: await jobBody(options, files),
    headers,
  });
}

export function postInspect(
  baseUrl: string,
  bytes: Uint8Array,
  headers: Record<string, string> = AUTH,
): Promise<Response> {
  return fetch(`${baseUrl}${CONVERTER_INSPECT_PDF_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/pdf", ...headers },
    body: new Uint8Array(bytes),
  });
}

/** Everything a 200 job stream held, in order. */
export interface JobStream {
  readonly progress: number[];
  readonly files: { index: number; kind: FileKind; bytes: Uint8Array }[];
  readonly facts?: JobFacts;
  readonly error?: ErrorBody;
}

export async function readJobStream(response: Response): Promise<JobStream> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe(CONVERTER_STREAM_TYPE);
  if (response.body === null) throw new Error("no body");
  const frames = new FrameReader(response.body);
  const stream: { progress: number[]; files: JobStream["files"]; facts?: JobFacts; error?: ErrorBody } = {
    progress: [],
    files: [],
  };
  for (let header = await frames.header(); header !== null; header = await frames.header()) {
    const frame = outputFrameSchema.parse(header);
    if (frame.type === "progress") stream.progress.push(frame.percent);
    else if (frame.type === "file") {
      const bytes = new Uint8Array(await new Response(frames.body(frame.size)).arrayBuffer());
      expect(bytes.length).toBe(frame.size);
      stream.files.push({ index: frame.index, kind: frame.kind, bytes });
    } else if (frame.type === "done") stream.facts = frame.facts;
    else stream.error = frame.error;
  }
  return stream;
}

/** A successful job: its one output file, its kind and the facts. */
export async function jobOutput(
  response: Response,
): Promise<{ bytes: Uint8Array; facts: JobFacts; kind: FileKind; progress: number[] }> {
  const stream = await readJobStream(response);
  expect(stream.error).toBeUndefined();
  expect(stream.files).toHaveLength(1);
  const [file] = stream.files;
  if (file === undefined || stream.facts === undefined) throw new Error("incomplete job stream");
  return { bytes: file.bytes, facts: stream.facts, kind: file.kind, progress: stream.progress };
}

/** A refused job: the error envelope (status of its code) before the 200. */
export async function jobError(
  response: Response,
): Promise<{ status: number; error: ErrorBody; requestId?: string }> {
  expect(response.ok).toBe(false);
  const envelope = errorEnvelopeSchema.parse(await response.json());
  return { status: response.status, error: envelope.error, requestId: envelope.request_id };
}

/** A job's error, whether refused before the 200 (envelope) or after it (error frame). */
export async function jobFailure(response: Response): Promise<ErrorBody> {
  if (!response.ok) return (await jobError(response)).error;
  const stream = await readJobStream(response);
  if (stream.error === undefined) throw new Error("the job succeeded");
  return stream.error;
}
