/**
 * Reads and validates a job request (contract/converter.ts): the multipart body with a JSON
 * `options` field and repeated `files` parts, checked against the tool's declaration — limits,
 * file kinds decided from the bytes, options parsed with the tool's schema.
 */
import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import {
  AppError,
  type ContainerToolId,
  FILE_KINDS,
  type FileKind,
  parseToolOptions,
  SNIFF_BYTES,
  sniffFileKind,
  TOOLS,
} from "../../contract/index.ts";
import type { JobFile } from "./job-protocol.ts";

/** Room for the options part on top of the files' total. */
const OPTIONS_ALLOWANCE = 64 * 1024;

export interface JobRequest {
  /** The options as form fields, valid for the tool's schema. */
  readonly fields: Record<string, string>;
  readonly files: JobFile[];
}

export async function readJobRequest(request: Request, tool: ContainerToolId): Promise<JobRequest> {
  const input = TOOLS[tool].input;
  const accepted: readonly FileKind[] = input.kinds;
  let fields: Record<string, string> = {};
  const files: JobFile[] = [];
  try {
    const parts = parseMultipartRequest(request, {
      maxFileSize: input.maxFileBytes,
      maxTotalSize: input.maxTotalBytes + OPTIONS_ALLOWANCE,
      maxParts: input.maxFiles + 1,
    });
    for await (const part of parts) {
      if (part.name === "options" && !part.isFile) {
        fields = optionFields(part.text);
      } else if (part.name === "files") {
        const fileIndex = files.length;
        const bytes = part.bytes;
        const kind = sniffFileKind(bytes.subarray(0, SNIFF_BYTES), part.filename ?? "");
        if (kind === null || !accepted.includes(kind)) {
          throw new AppError("UNSUPPORTED_FILE_TYPE", `The file is not one of: ${accepted.join(", ")}.`, {
            file_index: fileIndex,
          });
        }
        files.push({
          name: part.filename ?? `file-${fileIndex + 1}.${FILE_KINDS[kind].extensions[0]}`,
          kind,
          bytes,
        });
      } else {
        throw new AppError("BAD_REQUEST", "Unexpected multipart field.");
      }
    }
  } catch (error) {
    throw asRequestError(error, input.maxFileBytes);
  }
  if (files.length === 0) throw new AppError("NO_FILE", "The job has no input file.");
  if (files.length > input.maxFiles) {
    throw new AppError("TOO_MANY_FILES", `At most ${input.maxFiles} files.`, { max_files: input.maxFiles });
  }
  const total = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (total > input.maxTotalBytes) {
    throw new AppError("FILE_TOO_LARGE", "The files are too large together.", {
      max_bytes: input.maxTotalBytes,
    });
  }
  const options = parseToolOptions(tool, fields);
  if (!options.success) throw new AppError("INVALID_OPTIONS", options.issues);
  return { fields, files };
}

/**
 * The `options` JSON object as form fields: the Worker sends the output of the tool's schema, and
 * the schema parses form fields (strings), so scalar values are turned back into strings.
 */
function optionFields(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_OPTIONS", "options is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AppError("INVALID_OPTIONS", "options must be a JSON object.");
  }
  const fields: Record<string, string> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === null || field === undefined) continue;
    if (typeof field !== "string" && typeof field !== "number" && typeof field !== "boolean") {
      throw new AppError("INVALID_OPTIONS", `options.${key} must be a string, number or boolean.`);
    }
    fields[key] = String(field);
  }
  return fields;
}

function asRequestError(error: unknown, maxFileBytes: number): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
    return new AppError("FILE_TOO_LARGE", "A file is over the size limit.", { max_bytes: maxFileBytes });
  }
  if (error instanceof MaxPartsExceededError) return new AppError("TOO_MANY_FILES", "Too many files.");
  if (error instanceof MultipartParseError)
    return new AppError("BAD_REQUEST", "The multipart body is malformed.");
  return error;
}

/** Largest single PDF any tool accepts: the bound for `POST /v1/inspect/pdf`. */
export const MAX_INSPECT_BYTES = Math.max(
  ...Object.values(TOOLS)
    .filter((tool) => (tool.input.kinds as readonly FileKind[]).includes("pdf"))
    .map((tool) => tool.input.maxFileBytes),
);

/** Reads a raw request body up to `limit` bytes (FILE_TOO_LARGE beyond). */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared > limit)
    throw new AppError("FILE_TOO_LARGE", "The file is over the size limit.", { max_bytes: limit });
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > limit) {
      await reader.cancel();
      throw new AppError("FILE_TOO_LARGE", "The file is over the size limit.", { max_bytes: limit });
    }
    chunks.push(read.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}
