import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  type MultipartPart,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import { AppError, FILE_KINDS, type FileKind, SNIFF_BYTES, sniffFileKind } from "../contract/index.ts";
import { replaceControlCharacters } from "./file-names.ts";
import { inputKey } from "./task-files.ts";

/** What one request may upload: derived from the tool declarations (see tool-resolution.ts). */
export interface UploadPlan {
  readonly fileField: string;
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  /** Images with more pixels (read from the header) are refused before they are stored. */
  readonly maxPixels?: number;
}

/** A file of the upload, checked by content, before it is kept. */
export interface ReceivedFile {
  readonly index: number;
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
}

/** Where received files go as they arrive, and how to undo that when the upload is refused. */
export interface FileSink<T> {
  keep(file: ReceivedFile): Promise<T>;
  discard(kept: readonly T[]): Promise<void>;
}

export interface Upload<T> {
  readonly files: T[];
  /** Text fields of the form (last value wins). */
  readonly fields: Record<string, string>;
}

/** An upload stored in R2 for a task. */
export interface StoredInput {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  readonly kind: FileKind;
}

/** Stores each file under `tasks/{taskId}/in/{index}` as soon as it has arrived. */
export function r2Sink(bucket: R2Bucket, taskId: string): FileSink<StoredInput> {
  return {
    async keep({ index, name, kind, bytes }) {
      const key = inputKey(taskId, index);
      await bucket.put(key, bytes, {
        httpMetadata: { contentType: FILE_KINDS[kind].mime },
        customMetadata: { name: encodeURIComponent(name), kind },
      });
      return { key, name, size: bytes.byteLength, kind };
    },
    async discard(kept) {
      if (kept.length > 0) await bucket.delete(kept.map((input) => input.key));
    },
  };
}

/** Room for option fields and multipart framing on top of the file bytes. */
const MAX_TEXT_FIELDS = 16;
const MAX_TEXT_FIELD_BYTES = 4096;
const MAX_PART_HEADER_BYTES = 8192;

function framingAllowance(plan: UploadPlan): number {
  return (plan.maxFiles + MAX_TEXT_FIELDS) * MAX_PART_HEADER_BYTES + MAX_TEXT_FIELDS * MAX_TEXT_FIELD_BYTES;
}

/** A display name without directories or control characters (the bytes decide the kind, not the name). */
function cleanName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const cleaned = replaceControlCharacters(base, "").trim().slice(0, 200);
  return cleaned === "" ? "file" : cleaned;
}

function refuseEarly(request: Request, plan: UploadPlan): void {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("BAD_REQUEST", "Expected a multipart/form-data body");
  }
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > plan.maxTotalBytes + framingAllowance(plan)) {
    throw new AppError("FILE_TOO_LARGE", "The upload is larger than allowed", {
      max_total_bytes: plan.maxTotalBytes,
    });
  }
}

function translateParseError(error: unknown, plan: UploadPlan): unknown {
  if (error instanceof MaxFileSizeExceededError) {
    return new AppError("FILE_TOO_LARGE", "A file is larger than allowed", {
      max_file_bytes: plan.maxFileBytes,
    });
  }
  if (error instanceof MaxTotalSizeExceededError) {
    return new AppError("FILE_TOO_LARGE", "The files together are larger than allowed", {
      max_total_bytes: plan.maxTotalBytes,
    });
  }
  if (error instanceof MaxPartsExceededError) {
    return new AppError("TOO_MANY_FILES", "Too many parts in the upload", { max_files: plan.maxFiles });
  }
  if (error instanceof MultipartParseError) return new AppError("BAD_REQUEST", "Malformed multipart body");
  return error;
}

/** Checks one file part by content (never by its name or declared type, except Markdown). */
function checkFile(part: MultipartPart, index: number, plan: UploadPlan): ReceivedFile {
  const name = cleanName(part.filename ?? "");
  const bytes = part.bytes;
  const kind = sniffFileKind(bytes.subarray(0, SNIFF_BYTES), name);
  if (kind === null || !plan.kinds.includes(kind)) {
    throw new AppError("UNSUPPORTED_FILE_TYPE", "This file type is not accepted here", {
      expected: plan.kinds.join(", "),
    });
  }
  return { index, name, kind, bytes };
}

/**
 * Parses a multipart upload as it streams in: each file is checked by content and handed to the
 * sink as soon as its part is complete; limits are enforced while reading (413 before the rest of
 * the body is read). On any refusal the kept files are discarded.
 */
export async function receiveUpload<T>(
  request: Request,
  plan: UploadPlan,
  sink: FileSink<T>,
): Promise<Upload<T>> {
  refuseEarly(request, plan);
  const kept: T[] = [];
  const fields: Record<string, string> = {};
  let totalBytes = 0;
  try {
    const parts = parseMultipartRequest(request, {
      maxHeaderSize: MAX_PART_HEADER_BYTES,
      maxFileSize: Math.max(plan.maxFileBytes, MAX_TEXT_FIELD_BYTES),
      maxTotalSize: plan.maxTotalBytes + MAX_TEXT_FIELDS * MAX_TEXT_FIELD_BYTES,
      maxParts: plan.maxFiles + MAX_TEXT_FIELDS,
    });
    for await (const part of parts) {
      if (part.name === undefined) continue;
      if (!part.isFile) {
        if (part.size > MAX_TEXT_FIELD_BYTES) throw new AppError("BAD_REQUEST", "A form field is too long");
        fields[part.name] = part.text;
        continue;
      }
      if (part.name !== plan.fileField) {
        throw new AppError("BAD_REQUEST", "Unexpected file field", { expected_field: plan.fileField });
      }
      // A file input left empty arrives as a part without a name and without bytes.
      if (part.size === 0 && (part.filename ?? "") === "") continue;
      if (kept.length >= plan.maxFiles) {
        throw new AppError("TOO_MANY_FILES", "Too many files", { max_files: plan.maxFiles });
      }
      totalBytes += part.size;
      if (totalBytes > plan.maxTotalBytes) {
        throw new AppError("FILE_TOO_LARGE", "The files together are larger than allowed", {
          max_total_bytes: plan.maxTotalBytes,
        });
      }
      kept.push(await sink.keep(checkFile(part, kept.length, plan)));
    }
    if (kept.length === 0) throw new AppError("NO_FILE", "No file was uploaded");
    return { files: kept, fields };
  } catch (error) {
    await request.body?.cancel().catch(() => undefined);
    await sink.discard(kept);
    throw translateParseError(error, plan);
  }
}
