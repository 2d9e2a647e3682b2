import type { FileKind } from "../contract";
import { claimsKind, sniffFile } from "./file-formats";

export interface InputLimits {
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

/** Why a selection was refused; the screen turns it into a translated message. */
export type FileProblem =
  | { kind: "wrong-type"; file: File }
  | { kind: "wrong-content"; file: File }
  | { kind: "empty"; file: File }
  | { kind: "too-large"; file: File; limit: number }
  | { kind: "too-many"; limit: number }
  | { kind: "total-too-large"; size: number; limit: number };

export interface ValidationResult {
  accepted: File[];
  problems: FileProblem[];
}

/**
 * Checks new files against a tool's input declaration, given the files already chosen: type (as
 * reported, then the real bytes), emptiness, per-file size, count and total size. Files that pass
 * are accepted in order until a count or total limit would be crossed.
 */
export async function validateFiles(
  incoming: readonly File[],
  existing: readonly File[],
  limits: InputLimits,
): Promise<ValidationResult> {
  const accepted: File[] = [];
  const problems: FileProblem[] = [];
  let count = existing.length;
  let total = existing.reduce((sum, file) => sum + file.size, 0);
  for (const file of incoming) {
    if (!claimsKind(file, limits.kinds)) {
      problems.push({ kind: "wrong-type", file });
      continue;
    }
    if (file.size === 0) {
      problems.push({ kind: "empty", file });
      continue;
    }
    if (file.size > limits.maxFileBytes) {
      problems.push({ kind: "too-large", file, limit: limits.maxFileBytes });
      continue;
    }
    const kind = await sniffFile(file);
    if (!kind || !limits.kinds.includes(kind)) {
      problems.push({ kind: "wrong-content", file });
      continue;
    }
    if (count + 1 > limits.maxFiles) {
      problems.push({ kind: "too-many", limit: limits.maxFiles });
      break;
    }
    if (total + file.size > limits.maxTotalBytes) {
      problems.push({ kind: "total-too-large", size: total + file.size, limit: limits.maxTotalBytes });
      break;
    }
    accepted.push(file);
    count += 1;
    total += file.size;
  }
  return { accepted, problems };
}
