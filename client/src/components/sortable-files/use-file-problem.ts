import { useState } from "react";
import type { ChosenFile } from "./chosen-file";

export interface FileProblemMark {
  readonly id: string;
  readonly message: string;
}

/**
 * The file of a list the last run failed on, and why (`problemOf` is SortableFileList's prop). The
 * mark goes away by itself when that file leaves the list.
 */
export function useFileProblem(items: readonly ChosenFile[]) {
  const [mark, setMark] = useState<FileProblemMark | null>(null);
  const problem = mark !== null && items.some((item) => item.id === mark.id) ? mark : null;
  return {
    problemOf: (item: ChosenFile): string | undefined =>
      problem?.id === item.id ? problem.message : undefined,
    markProblem: (id: string, message: string) => setMark({ id, message }),
    clearProblem: () => setMark(null),
  };
}
