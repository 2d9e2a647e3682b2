import type { TFunction } from "i18next";
import type { FileKind } from "../../lib/contract";
import { formatLabel, formatsLabel } from "../../lib/files/file-formats";
import type { FileProblem } from "../../lib/files/validate-files";
import { formatFileSize, formatLimit } from "../../lib/format/file-size";
import { formatCount } from "../../lib/format/number";

type LimitProblem = Extract<FileProblem, { kind: "too-many" | "total-too-large" }>;
type OwnProblem = Exclude<FileProblem, LimitProblem>;

/** The translated message for a file refused for what it is (spec §5 wording), naming the file. */
export function describeProblem(
  problem: OwnProblem,
  kinds: readonly FileKind[],
  t: TFunction,
  language: string,
): string {
  const isPdf = kinds.length === 1 && kinds[0] === "pdf";
  const format = kinds.length === 1 && kinds[0] ? formatLabel(kinds[0]) : formatsLabel(kinds);
  const name = problem.file.name;
  switch (problem.kind) {
    case "wrong-type": {
      const message = isPdf
        ? t("errors.onlyPdf")
        : kinds.includes("markdown")
          ? t("errors.invalidMarkdown")
          : t("errors.invalidFormat", { format });
      return t("errors.fileProblem", { name, message });
    }
    case "wrong-content":
      if (isPdf) return t("errors.notPdfContent", { name });
      if (kinds.includes("markdown")) return t("errors.notMarkdownContent", { name });
      return t("errors.notImageContent", { name, format });
    case "empty":
      return t("errors.emptyFile", { name });
    case "too-large":
      return t("errors.fileTooLarge", {
        name,
        size: formatFileSize(problem.file.size, t, language),
        limit: formatLimit(problem.limit, t, language),
      });
  }
}

export interface RefusalContext {
  kinds: readonly FileKind[];
  /** How many files the list holds once the accepted ones are added. */
  kept: number;
  t: TFunction;
  language: string;
}

/**
 * One message naming every refused file once: a line per file refused for what it is, then one
 * line for the good files left out by the count limit (saying how many were kept) and one for those
 * left out by the total size limit. Null when nothing was refused.
 */
export function describeProblems(problems: readonly FileProblem[], context: RefusalContext): string | null {
  const { kinds, kept, t, language } = context;
  const list = (files: FileProblem[]) =>
    new Intl.ListFormat(language, { type: "conjunction" }).format(files.map((problem) => problem.file.name));
  const lines: string[] = [];
  const overCount: LimitProblem[] = [];
  const overTotal: LimitProblem[] = [];
  for (const problem of problems) {
    if (problem.kind === "too-many") overCount.push(problem);
    else if (problem.kind === "total-too-large") overTotal.push(problem);
    else lines.push(describeProblem(problem, kinds, t, language));
  }
  const countProblem = overCount[0];
  if (countProblem) {
    lines.push(
      countProblem.limit === 1
        ? t("errors.oneFileOnly", { names: list(overCount) })
        : t("errors.tooManyFiles", {
            limit: formatCount(countProblem.limit, language),
            kept: formatCount(kept, language),
            names: list(overCount),
          }),
    );
  }
  const totalProblem = overTotal[0];
  if (totalProblem) {
    lines.push(
      t("errors.totalTooLarge", {
        limit: formatLimit(totalProblem.limit, t, language),
        names: list(overTotal),
      }),
    );
  }
  return lines.length > 0 ? lines.join("\n") : null;
}
