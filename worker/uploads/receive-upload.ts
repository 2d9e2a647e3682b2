import {
  AppError,
  type ExtraFileInput,
  type FileKind,
  SNIFF_BYTES,
  StalledStreamError,
  sniffFileKind,
} from "../../contract/index.ts";
import { uploadedName } from "../file-names.ts";
import { drainBound } from "./drain.ts";
import { imageHeadSize, isImageKind, MAX_IMAGE_HEAD_BYTES } from "./image-head.ts";
import { boundaryOf, MultipartError, MultipartReader, type PartHead } from "./multipart-reader.ts";
import type { FileSink, ReceivedFile, Upload, UploadPlan } from "./types.ts";

/** Room for option fields and multipart framing on top of the file bytes. */
const MAX_TEXT_FIELDS = 16;
const MAX_TEXT_FIELD_BYTES = 4096;
const MAX_PART_HEADER_BYTES = 8192;
/**
 * A body that stops arriving (a client stalled, or a body shorter than its Content-Length) is
 * refused with 400 once a read of 64 KB (or of the rest) has waited this long: slower than 4 KB/s.
 */
export const UPLOAD_IDLE_MS = 15_000;

const extraFields = (plan: UploadPlan) => Object.values(plan.extraFiles ?? {});

function framingAllowance(plan: UploadPlan): number {
  const fileParts = plan.maxFiles + extraFields(plan).length;
  return (fileParts + MAX_TEXT_FIELDS) * MAX_PART_HEADER_BYTES + MAX_TEXT_FIELDS * MAX_TEXT_FIELD_BYTES;
}

/** The most all files of one request may hold: the main files and one file per extra field. */
function maxBodyFileBytes(plan: UploadPlan): number {
  return plan.maxTotalBytes + extraFields(plan).reduce((sum, extra) => sum + extra.maxFileBytes, 0);
}

/** What one file must be: its kinds and limits, and where a refusal points (`file_index` or `field`). */
interface FileRules {
  readonly kinds: readonly FileKind[];
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  readonly maxPixels?: number | undefined;
  readonly field?: string;
}

const fileTooLarge = (rules: FileRules) =>
  new AppError("FILE_TOO_LARGE", "A file is larger than allowed", {
    max_file_bytes: rules.maxFileBytes,
    ...(rules.field === undefined ? {} : { field: rules.field }),
  });
const totalTooLarge = (plan: { maxTotalBytes: number }) =>
  new AppError("FILE_TOO_LARGE", "The files together are larger than allowed", {
    max_total_bytes: plan.maxTotalBytes,
  });
const tooManyFiles = (plan: UploadPlan) =>
  new AppError("TOO_MANY_FILES", "Too many files", { max_files: plan.maxFiles });

/** The body's boundary, after refusing what can be refused from the headers alone. */
function checkHeaders(request: Request, plan: UploadPlan): string {
  const boundary = boundaryOf(request.headers.get("Content-Type") ?? "");
  if (boundary === null || request.body === null) {
    throw new AppError("BAD_REQUEST", "Expected a multipart/form-data body");
  }
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBodyFileBytes(plan) + framingAllowance(plan)) {
    throw totalTooLarge(plan);
  }
  return boundary;
}

/** Reads the current part's body, counting every byte against the file and total limits. */
class FileBytes {
  #size = 0;
  readonly reader: MultipartReader;
  readonly rules: FileRules;
  /** Shared by the files counted together (the main files of one upload). */
  readonly total: { bytes: number };

  constructor(reader: MultipartReader, rules: FileRules, total: { bytes: number }) {
    this.reader = reader;
    this.rules = rules;
    this.total = total;
  }

  async read(): Promise<Uint8Array | null> {
    const chunk = await this.reader.read();
    if (chunk === null) return null;
    this.#size += chunk.length;
    this.total.bytes += chunk.length;
    if (this.#size > this.rules.maxFileBytes) throw fileTooLarge(this.rules);
    if (this.total.bytes > this.rules.maxTotalBytes) throw totalTooLarge(this.rules);
    return chunk;
  }

  /** At least `count` bytes from the start of the file (fewer when it is shorter), plus whether it ended. */
  async head(start: Uint8Array, count: number): Promise<{ bytes: Uint8Array; ended: boolean }> {
    const chunks = [start];
    let length = start.length;
    while (length < count) {
      const chunk = await this.read();
      if (chunk === null) return { bytes: join(chunks, length), ended: true };
      chunks.push(chunk);
      length += chunk.length;
    }
    return { bytes: join(chunks, length), ended: false };
  }

  /** The head again, then the rest of the file as it arrives. */
  async *chunks(head: Uint8Array): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    for (let chunk = await this.read(); chunk !== null; chunk = await this.read()) yield chunk;
  }
}

function join(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

async function readField(reader: MultipartReader): Promise<string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    length += chunk.length;
    if (length > MAX_TEXT_FIELD_BYTES) throw new AppError("BAD_REQUEST", "A form field is too long");
    chunks.push(chunk);
  }
  return new TextDecoder().decode(join(chunks, length));
}

function checkKind(head: Uint8Array, name: string, rules: FileRules): FileKind {
  const kind = sniffFileKind(head.subarray(0, SNIFF_BYTES), name);
  if (kind === null || !rules.kinds.includes(kind)) {
    throw new AppError("UNSUPPORTED_FILE_TYPE", "This file type is not accepted here", {
      expected: rules.kinds.join(", "),
    });
  }
  return kind;
}

/** Reads as much of an image's head as its header needs and refuses it when it has too many pixels. */
async function checkPixels(
  bytes: FileBytes,
  head: { bytes: Uint8Array; ended: boolean },
  maxPixels: number,
  kind: FileKind,
): Promise<Uint8Array> {
  let current = head;
  for (;;) {
    const size = imageHeadSize(current.bytes, current.ended, kind);
    // The header is beyond the buffered start: the engine reads it before any decode.
    if (size === "container") return current.bytes;
    if (size !== null) {
      if (size.width * size.height > maxPixels) {
        throw new AppError("IMAGE_TOO_LARGE", `${size.width}×${size.height} exceeds ${maxPixels} pixels`, {
          width: size.width,
          height: size.height,
          maxPixels,
        });
      }
      return current.bytes;
    }
    current = await bytes.head(current.bytes, Math.min(current.bytes.length * 4, MAX_IMAGE_HEAD_BYTES));
  }
}

/** A file's kind from its first bytes and, for images with a pixel limit, its declared size. */
async function checkFile(
  bytes: FileBytes,
  head: { bytes: Uint8Array; ended: boolean },
  name: string,
  rules: FileRules,
): Promise<{ kind: FileKind; start: Uint8Array }> {
  const kind = checkKind(head.bytes, name, rules);
  const start =
    rules.maxPixels !== undefined && isImageKind(kind)
      ? await checkPixels(bytes, head, rules.maxPixels, kind)
      : head.bytes;
  return { kind, start };
}

/**
 * A refusal of one file names it, for the client: by its position in the upload (`file_index`), or
 * by its field when it came in an extra file field (`field`).
 */
function naming(error: unknown, where: { file_index: number } | { field: string }): unknown {
  if (!(error instanceof AppError)) return error;
  return new AppError(error.code, error.message, { ...error.context, ...where }, error.detail);
}

/** The rules of an extra file field: its own kinds and limits, counted apart from the main files. */
function extraRules(field: string, extra: ExtraFileInput): FileRules {
  return {
    kinds: extra.kinds,
    maxFileBytes: extra.maxFileBytes,
    maxTotalBytes: extra.maxFileBytes,
    maxPixels: extra.maxPixels,
    field,
  };
}

/** The extra file field `name` of the plan, if it declares one. */
function extraField(plan: UploadPlan, name: string): ExtraFileInput | undefined {
  const extras = plan.extraFiles ?? {};
  return Object.hasOwn(extras, name) ? extras[name] : undefined;
}

/** Where a file part goes: the main file field, or one of the plan's extra file fields. */
function fileRulesFor(plan: UploadPlan, part: PartHead): FileRules {
  if (part.name === plan.fileField) return plan;
  const extra = part.name === undefined ? undefined : extraField(plan, part.name);
  if (part.name === undefined || extra === undefined) {
    throw new AppError("BAD_REQUEST", "Unexpected file field", {
      expected_field: [plan.fileField, ...Object.keys(plan.extraFiles ?? {})].join(", "),
    });
  }
  return extraRules(part.name, extra);
}

/**
 * Parses a multipart upload as it streams in. Each file is checked by content from its first bytes
 * (and, with `maxPixels`, by the size its image header declares) before the sink stores anything,
 * then streamed into the sink; limits are enforced while reading, so an oversized body is refused
 * while reading. On any refusal nothing more is stored, the sink's files are discarded and the rest
 * of the body is drained (bounded, see drain.ts), so the refusal reaches the client on a connection
 * that stays usable.
 */
export async function receiveUpload<T>(
  request: Request,
  plan: UploadPlan,
  sink: FileSink<T>,
): Promise<Upload<T>> {
  const boundary = checkHeaders(request, plan);
  const reader = new MultipartReader(request.body as ReadableStream<Uint8Array>, boundary, {
    maxHeaderBytes: MAX_PART_HEADER_BYTES,
    idleMs: UPLOAD_IDLE_MS,
  });
  const kept: T[] = [];
  const extras: T[] = [];
  const extrasSeen = new Set<string>();
  const fields: Record<string, string> = {};
  const total = { bytes: 0 };
  const maxParts = plan.maxFiles + extraFields(plan).length + MAX_TEXT_FIELDS;
  let parts = 0;
  let textFields = 0;
  try {
    for (let part = await reader.nextPart(); part !== null; part = await reader.nextPart()) {
      // Text fields are options, not files: too many of them is a malformed form, not TOO_MANY_FILES.
      if (part.filename === undefined && ++textFields > MAX_TEXT_FIELDS) {
        throw new AppError("BAD_REQUEST", "Too many form fields", { max_fields: MAX_TEXT_FIELDS });
      }
      if (++parts > maxParts) throw tooManyFiles(plan);
      if (part.name === undefined) continue;
      if (part.filename === undefined) {
        fields[part.name] = await readField(reader);
        continue;
      }
      const rules = fileRulesFor(plan, part);
      const field = rules.field;
      // Extra fields count their one file on their own; the main files share the plan's total.
      const bytes = new FileBytes(reader, rules, field === undefined ? total : { bytes: 0 });
      const head = await bytes.head(new Uint8Array(0), SNIFF_BYTES);
      // A file input left empty arrives as a part without a name and without bytes.
      if (head.ended && head.bytes.length === 0 && part.filename === "") continue;
      if (field !== undefined && extrasSeen.has(field)) {
        throw new AppError("TOO_MANY_FILES", "One file per field", { max_files: 1, field });
      }
      if (field === undefined && kept.length >= plan.maxFiles) throw tooManyFiles(plan);
      const name = uploadedName(part.filename);
      const where = field === undefined ? { file_index: kept.length } : { field };
      const { kind, start } = await checkFile(bytes, head, name, rules).catch((error: unknown) => {
        throw naming(error, where);
      });
      const index = field === undefined ? kept.length : extras.length;
      const file: ReceivedFile = {
        index,
        name,
        kind,
        chunks: bytes.chunks(start),
        ...(field ? { field } : {}),
      };
      if (field === undefined) kept.push(await sink.keep(file));
      else {
        extrasSeen.add(field);
        extras.push(await sink.keep(file));
      }
    }
    // After the closing boundary the body still has its epilogue (a browser's and undici's "\r\n")
    // and its end, both unread: answering then leaves unread bytes on the connection, which the
    // HTTP layer in front (workerd, wrangler dev's proxy) may drop (see drain.ts). Read it to its end.
    await reader.drain(drainBound(request));
    if (kept.length === 0) throw new AppError("NO_FILE", "No file was uploaded");
    return { files: kept, extras, fields };
  } catch (error) {
    await sink.discard([...kept, ...extras]);
    // Bounded: checkHeaders refused any declared length over the plan's limits.
    await reader.drain(drainBound(request));
    if (error instanceof MultipartError) throw new AppError("BAD_REQUEST", "Malformed multipart body");
    if (error instanceof StalledStreamError) {
      throw new AppError("BAD_REQUEST", "The request body stopped arriving before its end", {
        idle_seconds: error.idleMs / 1000,
      });
    }
    throw error;
  }
}
