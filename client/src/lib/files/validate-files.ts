import type { FileKind } from "../contract";
import { claimsKind, sniffFile } from "./file-formats";

export interface InputLimits {
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
}

/** Why one file was refused; the screen turns it into a translated message naming the file. */
export type FileProblem =
  | { kind: "wrong-type"; file: File }
  | { kind: "wrong-content"; file: File }
  | { kind: "empty"; file: File }
  | { kind: "too-large"; file: File; limit: number }
  /** A good file left out because the count limit was reached. */
  | { kind: "too-many"; file: File; limit: number }
  /** A good file left out because it would take the total over the limit. */
  | { kind: "total-too-large"; file: File; limit: number };

export interface ValidationResult {
  accepted: File[];
  /** One entry per refused file, in the order the files were given. */
  problems: FileProblem[];
}

/** A file's own defect (type, emptiness, size, real bytes), or null when it is a good file. */
async function problemOf(file: File, limits: InputLimits): Promise<FileProblem | null> {
  if (!claimsKind(file, limits.kinds)) return { kind: "wrong-type", file };
  if (file.size === 0) return { kind: "empty", file };
  if (file.size > limits.maxFileBytes) return { kind: "too-large", file, limit: limits.maxFileBytes };
  const kind = await sniffFile(file);
  if (!kind || !limits.kinds.includes(kind)) return { kind: "wrong-content", file };
  return null;
}

/**
 * Checks new files against a tool's input declaration, given the files already chosen: type (as
 * reported, then the real bytes), emptiness, per-file size, count and total size. Good files are
 * accepted in order while the count and total allow; every other file gets exactly one problem.
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
    const problem = await problemOf(file, limits);
    if (problem) {
      problems.push(problem);
    } else if (count + 1 > limits.maxFiles) {
      problems.push({ kind: "too-many", file, limit: limits.maxFiles });
    } else if (total + file.size > limits.maxTotalBytes) {
      problems.push({ kind: "total-too-large", file, limit: limits.maxTotalBytes });
    } else {
      accepted.push(file);
      count += 1;
      total += file.size;
    }
  }
  return { accepted, problems };
}
