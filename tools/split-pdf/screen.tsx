import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { toggledRanges } from "../../client/src/components/pdf/page-picks";
import { PageGrid } from "../../client/src/components/pdf/page-thumbnails";
import { setPdfPassword } from "../../client/src/components/pdf/pdf-pages";
import { needsPassword } from "../../client/src/components/pdf/pdf-password-prompt";
import { usePdfAnalysis } from "../../client/src/components/pdf/use-pdf-analysis";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskProgress } from "../../client/src/components/tool/task-progress";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { downloadResult, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { apiErrorMessage, showApiError } from "../../client/src/lib/show-error";
import { showToast } from "../../client/src/lib/toast-store";
import { partsOfEvery, readRangesField } from "./page-picks";
import { type SplitMode, SplitOptions } from "./split-options";
import tool, { MAX_PAGES_PER_PART } from "./tool.ts";
import "./split-pdf.css";
import { formatCount } from "../../client/src/lib/format/number";

/** "report.pdf: This PDF is protected with a password…" */
function fileMessage(shared: TFunction, file: File, message: string): string {
  return shared("errors.fileProblem", { name: file.name, message });
}

/**
 * Split PDF: pick one PDF (its page count is read at once, a bad file is named before any job),
 * choose ranges (typed or clicked on the page thumbnails), every page or every N pages, split with
 * progress, then download the PDF or the ZIP of parts, or delete them.
 */
export default function SplitPdfPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<SplitMode>("ranges");
  const [rangesText, setRangesText] = useState("");
  const [perPartText, setPerPartText] = useState("2");
  const [anchor, setAnchor] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The password of a protected PDF, typed beside it: the analysis, the previews and the job use it.
  const [password, setPassword] = useState<string | undefined>(undefined);
  const analysis = usePdfAnalysis(
    file,
    (error) => {
      if (file === null || needsPassword(error)) return;
      showToast({
        variant: "destructive",
        title: t("failed"),
        description: fileMessage(shared, file, apiErrorMessage(shared, error)),
      });
    },
    password,
  );

  // The file stays chosen on error so the user can change the options and retry.
  const task = useToolTask(tool, (error) => {
    if (error.fileIndex !== 0 || file === null) {
      showApiError(shared, t("failed"), error);
      return;
    }
    const message = apiErrorMessage(shared, error);
    setProblem(message);
    showToast({
      variant: "destructive",
      title: t("failed"),
      description: fileMessage(shared, file, message),
    });
  });
  const { phase, busy } = task;

  // A file the server refuses (password, damage, no pages) is named as soon as it is analysed.
  const analysisError = analysis.state === "error" ? analysis.error : null;
  const fileProblem = problem ?? (analysisError ? apiErrorMessage(shared, analysisError) : null);

  const choose = (next: File | null) => {
    task.reset();
    setFile(next);
    setRangesText("");
    setAnchor(null);
    setProblem(null);
    setPassword(undefined);
  };

  if (phase.name === "done") {
    const { parts, pages } = phase.result.facts;
    const count = (value: unknown) => formatCount(Number(value), language);
    const facts = [
      { id: "name", label: shared("result.fileName"), value: phase.result.filename },
      ...(typeof parts === "number" ? [{ id: "parts", label: t("parts"), value: count(parts) }] : []),
      ...(typeof pages === "number"
        ? [{ id: "pages", label: shared("result.pages"), value: count(pages) }]
        : []),
      {
        id: "size",
        label: shared("result.size"),
        value: formatFileSize(phase.result.new_size, shared, language),
      },
    ];
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={facts}
          downloadLabel={shared("result.download")}
          anotherLabel={t("another")}
          expiresAt={phase.expiresAt}
          deleting={phase.deleting}
          onDownload={() => downloadResult(phase.result)}
          onDelete={() => void task.deleteNow().then((deleted) => deleted && choose(null))}
          onAnother={() => choose(null)}
        />
      </ToolShell>
    );
  }

  const pageCount = analysis.state === "ready" && fileProblem === null ? analysis.pages : null;
  const ranges = pageCount === null ? ({ state: "empty" } as const) : readRangesField(rangesText, pageCount);
  const perPart = Number(perPartText);
  const perPartValid =
    Number.isInteger(perPart) && perPart >= 1 && perPart <= Math.min(MAX_PAGES_PER_PART, pageCount ?? 1);
  let partCount: number | null = null;
  if (pageCount !== null) {
    if (mode === "ranges" && ranges.state === "valid") partCount = ranges.parts;
    if (mode === "every-page") partCount = pageCount;
    if (mode === "every-n" && perPartValid) partCount = partsOfEvery(pageCount, perPart);
  }
  const selected = ranges.state === "valid" ? ranges.pages : new Set<number>();

  const start = () => {
    if (file === null) return;
    setProblem(null);
    const fields: Record<string, string> = { split_mode: mode };
    if (mode === "ranges") fields.page_ranges = rangesText.replace(/\s+/g, "");
    if (mode === "every-n") fields.pages_per_part = String(perPart);
    if (password !== undefined) fields.password = password;
    void task.run([file], fields);
  };

  return (
    <ToolShell toolId={tool.id}>
      <div className="split-tool">
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => choose(files[0] ?? null)}
        />
        {file !== null ? (
          <ChosenPdf
            file={file}
            analysis={analysis}
            problem={fileProblem}
            disabled={busy}
            onRemove={() => choose(null)}
            onPassword={(typed) => {
              setPdfPassword(file, typed);
              setPassword(typed);
            }}
          />
        ) : null}
        {file !== null && pageCount !== null ? (
          <>
            <SplitOptions
              mode={mode}
              rangesText={rangesText}
              ranges={ranges}
              perPartText={perPartText}
              perPartValid={perPartValid}
              pageCount={pageCount}
              disabled={busy}
              onMode={setMode}
              onRanges={setRangesText}
              onPerPart={setPerPartText}
            />
            <section className="split-tool__pages" aria-label={t("pagesTitle")}>
              <PageGrid
                file={file}
                pages={pageCount}
                selected={mode === "ranges" ? selected : undefined}
                onToggle={
                  mode === "ranges" && !busy
                    ? (page, { shift }) => {
                        setRangesText(toggledRanges(selected, page, shift, anchor));
                        setAnchor(page);
                      }
                    : undefined
                }
              />
            </section>
          </>
        ) : null}
        <div className="tool-actions">
          {pageCount !== null && mode === "ranges" && ranges.state === "empty" ? (
            <p className="tool-actions__hint">{t("ranges.required")}</p>
          ) : null}
          {partCount !== null ? (
            <p className="tool-actions__hint" data-testid="part-count">
              {t("partCount", { count: partCount })}
            </p>
          ) : null}
          <TaskProgress phase={phase} />
          <button
            type="button"
            className="button button--primary button--large"
            disabled={partCount === null || busy}
            aria-busy={busy}
            onClick={start}
            data-testid="split-button"
          >
            {busy ? t("splitting") : t("split")}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}
