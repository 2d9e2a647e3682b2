import type { TFunction } from "i18next";
import type { FileKind } from "../../lib/contract";
import { formatLabel, formatsLabel } from "../../lib/files/file-formats";
import type { FileProblem } from "../../lib/files/validate-files";
import { formatFileSize, formatLimit } from "../../lib/format/file-size";

/** The translated message for a refused file (spec §5 wording, limits named from the tool). */
export function describeProblem(
  problem: FileProblem,
  kinds: readonly FileKind[],
  t: TFunction,
  language: string,
): string {
  const isPdf = kinds.length === 1 && kinds[0] === "pdf";
  const format = kinds.length === 1 && kinds[0] ? formatLabel(kinds[0]) : formatsLabel(kinds);
  switch (problem.kind) {
    case "wrong-type":
      if (isPdf) return t("errors.onlyPdf");
      if (kinds.includes("markdown")) return t("errors.invalidMarkdown");
      return t("errors.invalidFormat", { format });
    case "wrong-content":
      if (isPdf) return t("errors.notPdfContent", { name: problem.file.name });
      return t("errors.notImageContent", { name: problem.file.name, format });
    case "empty":
      return t("errors.emptyFile", { name: problem.file.name });
    case "too-large":
      return t("errors.fileTooLarge", {
        name: problem.file.name,
        size: formatFileSize(problem.file.size, t, language),
        limit: formatLimit(problem.limit, t, language),
      });
    case "too-many":
      return t("errors.tooManyFiles", { limit: problem.limit });
    case "total-too-large":
      return t("errors.totalTooLarge", {
        size: formatFileSize(problem.size, t, language),
        limit: formatLimit(problem.limit, t, language),
      });
  }
}
