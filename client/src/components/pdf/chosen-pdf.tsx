import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../lib/format/file-size";
import { Spinner } from "../spinner";
import { needsPassword, PdfPasswordPrompt } from "./pdf-password-prompt";
import type { PdfAnalysis } from "./use-pdf-analysis";
import "./chosen-pdf.css";
import { formatCount } from "../../lib/format/number";

interface ChosenPdfProps {
  readonly file: File;
  /** The page count as it is being read (spec: the analyzing state of the PDF tools). */
  readonly analysis: PdfAnalysis;
  /** Why the file cannot be used (the server named it), shown under its name. */
  readonly problem?: string | null;
  readonly disabled: boolean;
  readonly onRemove: () => void;
  /** Given, a PDF refused for its password asks for it here (the tool opens the file with it). */
  readonly onPassword?: ((password: string) => void) | undefined;
}

/**
 * The picked PDF of a one-file PDF tool: name, size, "Analyzing PDF…" then the page count (and
 * whether it was repaired), or why it cannot be used; a remove button.
 */
export function ChosenPdf({
  file,
  analysis,
  problem = null,
  disabled,
  onRemove,
  onPassword,
}: ChosenPdfProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const size = formatFileSize(file.size, t, language);
  let status: React.ReactNode = null;
  if (analysis.state === "analyzing") {
    status = (
      <span className="chosen-pdf__busy">
        <Spinner label={t("chosenPdf.analyzing")} /> {t("chosenPdf.analyzing")}
      </span>
    );
  } else if (analysis.state === "ready") {
    const pages = t("chosenPdf.pages", {
      count: analysis.pages,
      formatted: formatCount(analysis.pages, language),
    });
    status = analysis.repaired ? `${pages} · ${t("chosenPdf.repaired")}` : pages;
  } else if (analysis.state === "error" && problem === null) {
    status = t("chosenPdf.unreadable");
  }
  const askPassword =
    onPassword !== undefined && analysis.state === "error" && needsPassword(analysis.error)
      ? analysis.error
      : null;
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
          {size}
          {status === null ? null : (
            <>
              {" · "}
              <span data-testid="page-count">{status}</span>
            </>
          )}
        </span>
        {problem && askPassword === null ? (
          <span className="chosen-pdf__problem" role="alert">
            {problem}
          </span>
        ) : null}
        {askPassword === null || onPassword === undefined ? null : (
          <PdfPasswordPrompt error={askPassword} disabled={disabled} onPassword={onPassword} />
        )}
      </span>
      <button
        type="button"
        className="button button--small button--danger-outline"
        onClick={onRemove}
        disabled={disabled}
        aria-label={t("fileList.remove", { name: file.name })}
      >
        {t("chosenPdf.remove")}
      </button>
    </div>
  );
}
