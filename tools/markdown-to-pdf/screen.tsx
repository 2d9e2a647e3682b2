import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { type ResultFact, ResultPanel } from "../../client/src/components/tool/result-panel";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import {
  finishedTaskActions,
  type TaskPhase,
  useToolTask,
} from "../../client/src/components/tool/use-tool-task";
import type { ApiError } from "../../client/src/lib/api/api-error";
import type { TaskResult } from "../../client/src/lib/contract";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { apiErrorMessage, showErrorMessage } from "../../client/src/lib/show-error";
import { showToast } from "../../client/src/lib/toast-store";
import tool, { PAGE_SIZES, type PageSizeChoice } from "./tool.ts";
import "./markdown-to-pdf.css";
import { formatCount } from "../../client/src/lib/format/number";

/** The spec's download name when the server names none. */
const DEFAULT_NAME = "converted.pdf";
/** Causes the engine names in `context.markdown_error`, each with its own message here. */
const MARKDOWN_ERRORS = ["empty", "nestedTooDeeply", "tooLong"] as const;
type MarkdownError = (typeof MARKDOWN_ERRORS)[number];
const isMarkdownError = (cause: unknown): cause is MarkdownError =>
  MARKDOWN_ERRORS.some((known) => known === cause);

/**
 * Spec §4: progress is 10 when the conversion starts, 30 once the task id is back, 100 on success.
 * The upload fills 10→30 and the server's own progress 30→100.
 */
function overallPercent(phase: TaskPhase): number {
  if (phase.name === "uploading") return Math.round(10 + phase.percent * 0.2);
  if (phase.name === "processing") return Math.round(30 + phase.percent * 0.7);
  return phase.name === "done" ? 100 : 0;
}

/**
 * Markdown to PDF (spec §2, §4, §5): one Markdown file shown with its name and size, a page size,
 * convert with a progress bar and percent, then the PDF to download under the source file's name.
 */
export default function MarkdownToPdfScreen() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [file, setFile] = useState<File | null>(null);
  const [pageSize, setPageSize] = useState<PageSizeChoice>("a4");
  const describe = (error: ApiError) => {
    const cause = error.context.markdown_error;
    const message = isMarkdownError(cause)
      ? t(`errors.${cause}`, { ...error.context })
      : apiErrorMessage(shared, error);
    return file === null ? message : shared("errors.fileProblem", { name: file.name, message });
  };
  // On error the file stays chosen so the user can retry.
  const task = useToolTask(tool, (error) =>
    showToast({
      variant: "destructive",
      title: shared("errors.markdownConversionFailed"),
      description: describe(error),
    }),
  );
  const { phase, busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };

  const convert = () => {
    if (file === null) {
      showErrorMessage(shared, shared("errors.noFile"));
      return;
    }
    void task.run([file], { page_size: pageSize });
  };

  const resultFacts = (result: TaskResult): ResultFact[] => {
    const { pages } = result.facts;
    return [
      { id: "name", label: shared("result.fileName"), value: result.filename || DEFAULT_NAME },
      ...(typeof pages === "number"
        ? [
            {
              id: "pages",
              label: shared("result.pages"),
              value: formatCount(pages, language),
            },
          ]
        : []),
      { id: "page-size", label: t("pageSize"), value: t(`pageSizes.${pageSize}.label`) },
      { id: "size", label: shared("result.size"), value: formatFileSize(result.new_size, shared, language) },
    ];
  };

  if (phase.name === "done") {
    const replaced = phase.result.facts.images_replaced;
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={resultFacts(phase.result)}
          downloadLabel={t("download", { name: phase.result.filename || DEFAULT_NAME })}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => pick(null))}
          onAnother={() => pick(null)}
        >
          {typeof replaced === "number" && replaced > 0 ? (
            <p className="markdown-to-pdf__note" data-testid="images-replaced">
              {t("imagesReplaced", { count: replaced })}
            </p>
          ) : null}
        </ResultPanel>
      </ToolShell>
    );
  }

  const percent = overallPercent(phase);
  return (
    <ToolShell toolId={tool.id}>
      <div className="markdown-to-pdf">
        {file === null ? (
          <FileDropzone limits={tool.input} disabled={busy} onAccept={(files) => pick(files[0] ?? null)} />
        ) : (
          <div className="markdown-to-pdf__file" data-testid="chosen-file">
            <span className="markdown-to-pdf__name" title={file.name}>
              {file.name}
            </span>
            <span className="markdown-to-pdf__size" data-testid="file-size">
              {formatFileSize(file.size, shared, language)}
            </span>
            <button type="button" className="button button--ghost" disabled={busy} onClick={() => pick(null)}>
              {t("remove")}
            </button>
          </div>
        )}
        <ChoiceGroup
          legend={t("pageSize")}
          name="page_size"
          choices={PAGE_SIZES.map((choice) => ({
            value: choice,
            label: t(`pageSizes.${choice}.label`),
            hint: t(`pageSizes.${choice}.hint`),
          }))}
          value={pageSize}
          disabled={busy}
          onChange={setPageSize}
        />
        <div className="tool-actions">
          {busy ? (
            <div className="task-progress" data-testid="task-progress">
              <p className="task-progress__label" id="markdown-progress-label" aria-live="polite">
                {t("progress", { percent })}
              </p>
              <progress
                className="task-progress__bar"
                max={100}
                value={percent}
                aria-labelledby="markdown-progress-label"
              />
            </div>
          ) : null}
          <button
            type="button"
            className="button button--primary button--large"
            disabled={busy || file === null}
            aria-busy={busy}
            onClick={convert}
            data-testid="convert-button"
          >
            {busy ? t("converting") : t("convert")}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}
