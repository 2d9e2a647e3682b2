/**
 * Which tool a start request is for, from the tools' endpoint declarations (tools/<id>/tool.ts):
 * the path, the fixed fields the client sends (`output_format`, `target_format`), a tool's own
 * `select` rule, and the kind of the uploaded file.
 */
import {
  AppError,
  type AvailableToolId,
  declarationOf,
  type ExtraFileInput,
  extraFilesOf,
  FILE_KINDS,
  type FileKind,
  TOOL_IDS,
  TOOLS,
  type ToolId,
} from "../contract/index.ts";
import type { StoredInput, UploadPlan } from "./upload.ts";

type Fields = Readonly<Record<string, string>>;

/** A format name as the endpoints spell it: lower case, the kind's first extension (jpeg → jpg). */
function canonicalFormat(value: string | undefined): string {
  const lower = (value ?? "").trim().toLowerCase();
  const kind = Object.values(FILE_KINDS).find((k) => (k.extensions as readonly string[]).includes(lower));
  return kind?.extensions[0] ?? lower;
}

/** Every path that starts a task, in tool order. */
export const START_PATHS: readonly string[] = [...new Set(TOOL_IDS.map((id) => TOOLS[id].endpoint.path))];

/** The tools started through one API path, in tool order. */
export function toolsAtPath(path: string): ToolId[] {
  return TOOL_IDS.filter((id) => TOOLS[id].endpoint.path === path);
}

export function isAvailable(id: ToolId): id is AvailableToolId {
  return TOOLS[id].available;
}

/** 501 unless at least one of `candidates` is available. */
export function requireAvailable(candidates: readonly ToolId[]): void {
  if (!candidates.some(isAvailable)) {
    const context =
      candidates.length === 1 && candidates[0] !== undefined ? { tool: candidates[0] } : undefined;
    throw new AppError("TOOL_NOT_AVAILABLE", "This tool is not available yet", context);
  }
}

/** Upload limits that hold for every candidate: the union of kinds, the largest limits. */
export function uploadPlanFor(candidates: readonly ToolId[]): UploadPlan {
  const first = candidates[0];
  if (first === undefined) throw new Error("uploadPlanFor needs at least one tool");
  const inputs = candidates.map((id) => TOOLS[id].input);
  const pixelLimits = candidates.map((id) => declarationOf(id).input.maxPixels ?? Number.POSITIVE_INFINITY);
  const maxPixels = Math.max(...pixelLimits);
  return {
    fileField: TOOLS[first].endpoint.fileField,
    kinds: [...new Set(inputs.flatMap((input) => input.kinds))],
    maxFiles: Math.max(...inputs.map((input) => input.maxFiles)),
    maxFileBytes: Math.max(...inputs.map((input) => input.maxFileBytes)),
    maxTotalBytes: Math.max(...inputs.map((input) => input.maxTotalBytes)),
    ...(Number.isFinite(maxPixels) ? { maxPixels } : {}),
    extraFiles: extraFilesFor(candidates),
  };
}

/** The extra file fields any candidate declares (the first declaration of a name wins). */
function extraFilesFor(candidates: readonly ToolId[]): Record<string, ExtraFileInput> {
  const fields: Record<string, ExtraFileInput> = {};
  for (const id of candidates) {
    for (const [name, extra] of Object.entries(extraFilesOf(TOOLS[id].input))) fields[name] ??= extra;
  }
  return fields;
}

/** The tool's fixed fields all have the request's values, and its own rule (if any) agrees. */
function matchesFields(id: ToolId, fields: Fields): boolean {
  const { endpoint } = declarationOf(id);
  const fixed = Object.entries(endpoint.fields).every(
    ([name, value]) => canonicalFormat(fields[name]) === value,
  );
  return fixed && (endpoint.select?.(fields) ?? true);
}

/**
 * Picks the tool behind a path from the request's fields (query and form) and the kind of the first
 * file. `kind` null means "before the body is read": the answer is then null whenever the body is
 * still needed to decide. Several matches go to the tool whose own source is that kind, else to the
 * first in tool order.
 */
export function resolveTool(path: string, fields: Fields, kind: FileKind | null): ToolId | null {
  const candidates = toolsAtPath(path);
  if (candidates.length === 1) return candidates[0] ?? null;
  const byFields = candidates.filter((id) => matchesFields(id, fields));
  // Before the body: only when the fields alone leave one tool, whatever the file.
  if (kind === null) return byFields.length === 1 ? (byFields[0] ?? null) : null;
  // A tool made for this kind (its first input kind: HEIC → heic-to-jpg) before one that also takes it.
  const accepting = byFields.filter((id) => (TOOLS[id].input.kinds as readonly FileKind[]).includes(kind));
  return accepting.find((id) => TOOLS[id].input.kinds[0] === kind) ?? accepting[0] ?? null;
}

/**
 * Checks the files of the extra fields against the chosen tool: each one it declares (a required
 * one must be there, NO_FILE naming the field), of its kinds and size; none it does not declare.
 */
export function checkExtrasFit(tool: ToolId, extras: readonly StoredInput[]): void {
  const declared = extraFilesOf(TOOLS[tool].input);
  for (const input of extras) {
    const field = input.field ?? "";
    const extra = Object.hasOwn(declared, field) ? declared[field] : undefined;
    if (extra === undefined) {
      throw new AppError("BAD_REQUEST", "Unexpected file field", {
        expected_field: TOOLS[tool].endpoint.fileField,
      });
    }
    if (!(extra.kinds as readonly FileKind[]).includes(input.kind)) {
      throw new AppError("UNSUPPORTED_FILE_TYPE", "This file type is not accepted here", {
        expected: extra.kinds.join(", "),
        field,
      });
    }
    if (input.size > extra.maxFileBytes) {
      throw new AppError("FILE_TOO_LARGE", "A file is larger than allowed", {
        max_file_bytes: extra.maxFileBytes,
        field,
      });
    }
  }
  for (const [field, extra] of Object.entries(declared)) {
    if (extra.required && !extras.some((input) => input.field === field)) {
      throw new AppError("NO_FILE", `No file in the ${field} field`, { field });
    }
  }
}

/** Re-checks stored uploads against the chosen tool's own limits (the plan may have been wider). */
export function checkInputsFit(tool: ToolId, inputs: readonly StoredInput[]): void {
  const limits = TOOLS[tool].input;
  const kinds: readonly FileKind[] = limits.kinds;
  if (inputs.length > limits.maxFiles) {
    throw new AppError("TOO_MANY_FILES", "Too many files", { max_files: limits.maxFiles });
  }
  if (inputs.some((input) => !kinds.includes(input.kind))) {
    throw new AppError("UNSUPPORTED_FILE_TYPE", "This file type is not accepted here", {
      expected: kinds.join(", "),
    });
  }
  if (inputs.some((input) => input.size > limits.maxFileBytes)) {
    throw new AppError("FILE_TOO_LARGE", "A file is larger than allowed", {
      max_file_bytes: limits.maxFileBytes,
    });
  }
  if (inputs.reduce((sum, input) => sum + input.size, 0) > limits.maxTotalBytes) {
    throw new AppError("FILE_TOO_LARGE", "The files together are larger than allowed", {
      max_total_bytes: limits.maxTotalBytes,
    });
  }
}

/**
 * Why no tool matched: when some tool's fields match, the file's kind does not suit that conversion
 * (415, naming the kinds that would); otherwise a field names a conversion no tool makes.
 */
export function unresolvedToolError(path: string, fields: Fields): AppError {
  const byFields = toolsAtPath(path).filter((id) => matchesFields(id, fields));
  if (byFields.length > 0) {
    const kinds = [...new Set(byFields.flatMap((id) => TOOLS[id].input.kinds))];
    return new AppError("UNSUPPORTED_FILE_TYPE", "This file type cannot be converted that way", {
      expected: kinds.join(", "),
    });
  }
  const fixed = toolsAtPath(path).flatMap((id) => Object.entries(declarationOf(id).endpoint.fields));
  const values = new Map<string, string[]>();
  for (const [name, value] of fixed) values.set(name, [...(values.get(name) ?? []), value]);
  const names = [...values.keys()];
  const context = Object.fromEntries(
    [...values].map(([name, list]) => [name, [...new Set(list)].join(", ")]),
  );
  return new AppError("INVALID_OPTIONS", `Unknown ${names.join(" / ") || "tool"}`, context);
}
