/**
 * Receives a job's inputs (contract/converter.ts job stream) into the job's directory, checked
 * against the tool's declaration while streaming: declared size first (before any byte is read),
 * then each file's announced size, its kind from its first bytes, and the options once with the
 * tool's schema. Nothing but a file's first SNIFF_BYTES and a write batch (WRITE_BATCH_BYTES) is held in memory.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import {
  AppError,
  CONVERTER_PASSWORD_HEADER,
  type ContainerToolId,
  type ExtraFileInput,
  extraFilesOf,
  type FileKind,
  FrameReader,
  inputFileFrameSchema,
  jobFrameSchema,
  MAX_FRAME_HEADER_BYTES,
  SNIFF_BYTES,
  sniffFileKind,
  TOOLS,
  type ToolOptions,
  TruncatedStreamError,
} from "../../contract/index.ts";
import type { JobFile } from "./job-protocol.ts";

export interface ReceivedJob<T extends ContainerToolId> {
  readonly options: ToolOptions<T>;
  readonly files: JobFile[];
}

/**
 * Largest body a tool's job stream may have: its files and those of its extra file fields, plus one
 * header line per frame.
 */
export function maxJobBytes(tool: ContainerToolId): number {
  const input = TOOLS[tool].input;
  const extras = Object.values(extraFilesOf(input));
  const extraBytes = extras.reduce((sum, extra) => sum + extra.maxFileBytes, 0);
  return input.maxTotalBytes + extraBytes + (input.maxFiles + extras.length + 1) * MAX_FRAME_HEADER_BYTES;
}

/** The declaration of extra file field `field` of the tool; a field it does not declare is refused. */
function extraFileInput(tool: ContainerToolId, field: string, seen: ReadonlySet<string>): ExtraFileInput {
  const declared = extraFilesOf(TOOLS[tool].input);
  const extra = Object.hasOwn(declared, field) ? declared[field] : undefined;
  if (extra === undefined) throw new AppError("BAD_REQUEST", "A file frame names an unknown field.");
  if (seen.has(field)) throw new AppError("TOO_MANY_FILES", "One file per field.", { max_files: 1, field });
  return extra;
}

/** Largest single PDF any tool accepts: the bound for `POST /v1/inspect/pdf`. */
export const MAX_INSPECT_BYTES = Math.max(
  ...Object.values(TOOLS)
    .filter((tool) => (tool.input.kinds as readonly FileKind[]).includes("pdf"))
    .map((tool) => tool.input.maxFileBytes),
);

/**
 * The request's Content-Length, refused when missing or over `limit` (FILE_TOO_LARGE). Decided
 * before the body is read.
 */
export function declaredLength(request: Request, limit: number): number {
  const raw = request.headers.get("Content-Length");
  const length = raw === null ? Number.NaN : Number(raw);
  if (!Number.isSafeInteger(length) || length < 0)
    throw new AppError("BAD_REQUEST", "Content-Length is required.");
  if (length > limit)
    throw new AppError("FILE_TOO_LARGE", "The request is over the size limit.", { max_bytes: limit });
  return length;
}

function frameError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof TruncatedStreamError)
    return new AppError("BAD_REQUEST", "The body ended before the job stream was complete.");
  if (error instanceof SyntaxError || error instanceof TypeError)
    return new AppError("BAD_REQUEST", "The job stream is malformed.");
  return error;
}

/** Reads the job stream of `request` into `dir`; the caller removes `dir` whatever happens. */
export async function receiveJob<T extends ContainerToolId>(
  request: Request,
  tool: T,
  dir: string,
): Promise<ReceivedJob<T>> {
  if (request.body === null) throw new AppError("NO_FILE", "The job has no input file.");
  const input = TOOLS[tool].input;
  const accepted: readonly FileKind[] = input.kinds;
  const frames = new FrameReader(request.body);
  try {
    const job = jobFrameSchema.safeParse(await frames.header());
    if (!job.success) throw new AppError("BAD_REQUEST", "The job stream must start with a job frame.");
    const options = TOOLS[tool].options.safeParse(job.data.options);
    if (!options.success) {
      const issues = options.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
      throw new AppError("INVALID_OPTIONS", issues.join("; "));
    }
    const extraCount = Object.keys(extraFilesOf(input)).length;
    if (job.data.files === 0) throw new AppError("NO_FILE", "The job has no input file.");
    if (job.data.files > input.maxFiles + extraCount) {
      throw new AppError("TOO_MANY_FILES", `At most ${input.maxFiles} files.`, { max_files: input.maxFiles });
    }
    const files: JobFile[] = [];
    const fields = new Set<string>();
    let total = 0;
    let main = 0;
    for (let index = 0; index < job.data.files; index++) {
      const frame = inputFileFrameSchema.safeParse(await frames.header());
      if (!frame.success) throw new AppError("BAD_REQUEST", "A file frame is malformed.");
      const { name, size, field } = frame.data;
      // A main file is checked against the tool's input, a field's file against that field.
      const extra = field === undefined ? undefined : extraFileInput(tool, field, fields);
      const where: Record<string, number | string> = field === undefined ? { file_index: main } : { field };
      if (field === undefined && ++main > input.maxFiles) {
        throw new AppError("TOO_MANY_FILES", `At most ${input.maxFiles} files.`, {
          max_files: input.maxFiles,
        });
      }
      if (field === undefined) total += size;
      const maxFile = extra?.maxFileBytes ?? input.maxFileBytes;
      if (size > maxFile || total > input.maxTotalBytes) {
        const max = size > maxFile ? maxFile : input.maxTotalBytes;
        throw new AppError("FILE_TOO_LARGE", "A file is over the size limit.", { max_bytes: max, ...where });
      }
      const path = join(dir, `in-${index}`);
      const head = await writeFile(frames.body(size), path);
      const kind = sniffFileKind(head, name);
      const kinds: readonly FileKind[] = extra?.kinds ?? accepted;
      if (kind === null || !kinds.includes(kind)) {
        throw new AppError("UNSUPPORTED_FILE_TYPE", `The file is not one of: ${kinds.join(", ")}.`, where);
      }
      if (field !== undefined) fields.add(field);
      files.push({ name, kind, path, size, ...(field === undefined ? {} : { field }) });
    }
    if (main === 0) throw new AppError("NO_FILE", "The job has no input file.");
    if ((await frames.header()) !== null) throw new AppError("BAD_REQUEST", "Data after the last file.");
    return { options: options.data as ToolOptions<T>, files };
  } catch (error) {
    await frames.cancel();
    throw frameError(error);
  }
}

/** Streams a raw request body (a PDF to inspect) into `path`; returns its first bytes. */
export async function receiveBody(request: Request, size: number, path: string): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const frames = new FrameReader(request.body);
  try {
    return await writeFile(frames.body(size), path);
  } catch (error) {
    await frames.cancel();
    throw frameError(error);
  }
}

/**
 * Bytes gathered before one write to disk: the Worker's pipe arrives in pieces of 4–64 KB, and one
 * awaited write per piece took 117–172 ms of the 240–380 ms a 6.5 MB input needed to arrive.
 */
const WRITE_BATCH_BYTES = 1024 * 1024;

/** Writes a stream to a new file and returns its first SNIFF_BYTES. */
async function writeFile(body: ReadableStream<Uint8Array>, path: string): Promise<Uint8Array> {
  const handle = await open(path, "wx", 0o600);
  const head = new Uint8Array(SNIFF_BYTES);
  let headLength = 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const flush = async () => {
    const pieces = batch;
    batch = [];
    batchBytes = 0;
    if (pieces.length > 0) await handle.writev(pieces);
  };
  const reader = body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const chunk = next.value;
      if (headLength < SNIFF_BYTES) {
        const take = Math.min(SNIFF_BYTES - headLength, chunk.length);
        head.set(chunk.subarray(0, take), headLength);
        headLength += take;
      }
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= WRITE_BATCH_BYTES) await flush();
    }
    await flush();
  } finally {
    await handle.close();
  }
  return head.subarray(0, headLength);
}

/** The password of a PDF to inspect (`X-Pdf-Password`, percent-encoded UTF-8), if the request has one. */
export function inspectPassword(request: Request): string | undefined {
  const raw = request.headers.get(CONVERTER_PASSWORD_HEADER);
  if (raw === null) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError("BAD_REQUEST", "The password header is not percent-encoded UTF-8.");
  }
}
