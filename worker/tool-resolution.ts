import {
  API_PATHS,
  AppError,
  type AvailableToolId,
  FILE_KINDS,
  type FileKind,
  imageConvertTool,
  TOOL_ENDPOINTS,
  TOOL_IDS,
  TOOLS,
  type ToolId,
} from "../contract/index.ts";
import type { StoredInput, UploadPlan } from "./upload.ts";

/** A format name as the endpoints spell it: lower case, the kind's first extension (jpeg → jpg). */
function canonicalFormat(value: string | undefined): string {
  const lower = (value ?? "").trim().toLowerCase();
  const kind = Object.values(FILE_KINDS).find((k) => (k.extensions as readonly string[]).includes(lower));
  return kind?.extensions[0] ?? lower;
}

/** The tools started through one API path, in declaration order. */
export function toolsAtPath(path: string): ToolId[] {
  return TOOL_IDS.filter((id) => TOOL_ENDPOINTS[id].path === path);
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
  return {
    fileField: TOOL_ENDPOINTS[first].fileField,
    kinds: [...new Set(inputs.flatMap((input) => input.kinds))],
    maxFiles: Math.max(...inputs.map((input) => input.maxFiles)),
    maxFileBytes: Math.max(...inputs.map((input) => input.maxFileBytes)),
    maxTotalBytes: Math.max(...inputs.map((input) => input.maxTotalBytes)),
  };
}

/**
 * Picks the tool behind a path from the request's fields (query and form) and, for image
 * conversion, the kind of the uploaded file. `firstKind` null means "before the body is read":
 * the answer is then null whenever the body is still needed to decide.
 */
export function resolveTool(
  path: string,
  fields: Record<string, string>,
  firstKind: FileKind | null,
): ToolId | null {
  const candidates = toolsAtPath(path);
  if (candidates.length === 1) return candidates[0] ?? null;
  if (path === API_PATHS.imageConvert) {
    if (firstKind === null) return null;
    return imageConvertTool(firstKind, fields.target_format ?? "", fields.quality ?? "");
  }
  const matching = candidates.filter((id) =>
    Object.entries(TOOL_ENDPOINTS[id].fields).every(
      ([name, value]) => canonicalFormat(fields[name]) === value,
    ),
  );
  return matching.length === 1 ? (matching[0] ?? null) : null;
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
 * Why no tool matched: a discriminating field (output_format, target_format…) with an unknown
 * value is an option error; a known value means the file's kind does not suit that conversion.
 */
export function unresolvedToolError(path: string, fields: Record<string, string>): AppError {
  const candidates = toolsAtPath(path);
  const choices = new Map<string, Map<string, ToolId[]>>();
  for (const id of candidates) {
    for (const [name, value] of Object.entries(TOOL_ENDPOINTS[id].fields)) {
      const byValue = choices.get(name) ?? new Map<string, ToolId[]>();
      byValue.set(value, [...(byValue.get(value) ?? []), id]);
      choices.set(name, byValue);
    }
  }
  for (const [name, byValue] of choices) {
    const chosen = byValue.get(canonicalFormat(fields[name]));
    if (chosen === undefined) {
      return new AppError("INVALID_OPTIONS", `Unknown ${name}`, { [name]: [...byValue.keys()].join(", ") });
    }
    const kinds = [...new Set(chosen.flatMap((id) => TOOLS[id].input.kinds))];
    return new AppError("UNSUPPORTED_FILE_TYPE", "This file type cannot be converted that way", {
      expected: kinds.join(", "),
    });
  }
  return new AppError("INVALID_OPTIONS", "The request does not name a tool");
}
