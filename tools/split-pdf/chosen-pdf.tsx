import { useTranslation } from "react-i18next";
import type { PdfAnalysis } from "../../client/src/components/pdf/use-pdf-analysis";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import tool from "./tool.ts";

interface ChosenPdfProps {
  file: File;
  analysis: PdfAnalysis;
  /** Why the file cannot be split (the server named it), shown under its name. */
  problem: string | null;
  disabled: boolean;
  onRemove: () => void;
}

/** The picked PDF: name, size, page count once analysed (or why it cannot be split), remove. */
export function ChosenPdf({ file, analysis, problem, disabled, onRemove }: ChosenPdfProps) {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  let status: string | null = null;
  if (analysis.state === "analyzing") status = t("analyzing");
  if (analysis.state === "ready") {
    status = t("pageCount", { count: analysis.pages });
    if (analysis.repaired) status = `${status} · ${t("repaired")}`;
  }
  return (
    <div
      className={`chosen-pdf${problem ? " chosen-pdf--problem" : ""}`}
      data-testid="chosen-pdf"
      data-problem={problem ? "true" : undefined}
    >
      <span className="chosen-pdf__icon" aria-hidden="true">
        PDF
      </span>
      <span className="chosen-pdf__text">
        <span className="chosen-pdf__name" title={file.name}>
          {file.name}
        </span>
        <span className="chosen-pdf__meta">
          {formatFileSize(file.size, shared, language)}
          {status ? ` · ${status}` : null}
        </span>
        {problem ? (
          <span className="chosen-pdf__problem" role="alert">
            {problem}
          </span>
        ) : null}
      </span>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={onRemove}
        disabled={disabled}
        aria-label={shared("fileList.remove", { name: file.name })}
      >
        ×
      </button>
    </div>
  );
}
