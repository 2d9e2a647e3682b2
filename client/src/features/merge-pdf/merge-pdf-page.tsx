import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FileDropzone } from "../../components/tool/file-dropzone";
import { ResultPanel } from "../../components/tool/result-panel";
import { TaskProgress } from "../../components/tool/task-progress";
import { ToolShell } from "../../components/tool/tool-shell";
import { downloadResult, useToolTask } from "../../components/tool/use-tool-task";
import { TOOLS } from "../../lib/contract";
import { formatFileSize } from "../../lib/format/file-size";
import { showApiError } from "../../lib/show-error";
import { type ChosenFile, toChosenFiles } from "./chosen-file";
import { SortableFileList } from "./sortable-file-list";
import "./merge-pdf.css";

const TOOL_ID = "merge-pdf";
const tool = TOOLS[TOOL_ID];
/** Merging needs at least two files. */
const MIN_FILES = 2;

/** Merge PDFs: choose, order, merge with upload and processing progress, download or delete. */
export default function MergePdfPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [items, setItems] = useState<ChosenFile[]>([]);
  // On error the files stay selected so the user can retry.
  const task = useToolTask(TOOL_ID, (error) => showApiError(t, t("errors.mergeFailed"), error));
  const { phase, busy } = task;

  const startOver = () => {
    task.reset();
    setItems([]);
  };

  if (phase.name === "done") {
    const pages = phase.result.facts.pages;
    const facts = [
      { id: "name", label: t("result.fileName"), value: phase.result.filename },
      ...(typeof pages === "number"
        ? [{ id: "pages", label: t("result.pages"), value: new Intl.NumberFormat(language).format(pages) }]
        : []),
      { id: "size", label: t("result.size"), value: formatFileSize(phase.result.new_size, t, language) },
    ];
    return (
      <ToolShell toolId={TOOL_ID}>
        <ResultPanel
          title={t("merge.resultTitle")}
          facts={facts}
          downloadLabel={t("result.download")}
          anotherLabel={t("merge.another")}
          expiresAt={phase.expiresAt}
          deleting={phase.deleting}
          onDownload={() => downloadResult(phase.result)}
          onDelete={() => void task.deleteNow().then((deleted) => deleted && setItems([]))}
          onAnother={startOver}
        />
      </ToolShell>
    );
  }

  const canMerge = items.length >= MIN_FILES && !busy;
  return (
    <ToolShell toolId={TOOL_ID}>
      <div className="merge-tool">
        <FileDropzone
          limits={tool.input}
          existing={items.map((item) => item.file)}
          disabled={busy}
          compact={items.length > 0}
          onAccept={(files) => setItems((current) => [...current, ...toChosenFiles(files)])}
        />
        {items.length > 0 ? <SortableFileList items={items} disabled={busy} onChange={setItems} /> : null}
        <div className="tool-actions">
          {items.length > 0 && items.length < MIN_FILES ? (
            <p className="tool-actions__hint">{t("merge.needTwo")}</p>
          ) : null}
          <TaskProgress phase={phase} />
          <button
            type="button"
            className="button button--primary button--large"
            disabled={!canMerge}
            aria-busy={busy}
            onClick={() => void task.run(items.map((item) => item.file))}
            data-testid="merge-button"
          >
            {busy ? t("merge.merging") : t("merge.merge")}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}
