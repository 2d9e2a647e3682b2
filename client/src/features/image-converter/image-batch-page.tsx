import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { FileDropzone } from "../../components/tool/file-dropzone";
import { ResultPanel } from "../../components/tool/result-panel";
import { ToolShell } from "../../components/tool/tool-shell";
import { TOOLS, type ToolId } from "../../lib/contract";
import { formatFileSize, formatPercent } from "../../lib/format/file-size";
import { showErrorMessage } from "../../lib/show-error";
import { showToast } from "../../lib/toast-store";
import { downloadBatch } from "./batch-download";
import { BatchList } from "./batch-list";
import { CompareSlider } from "./compare-slider";
import { type DoneItem, useBatchTasks } from "./use-batch-tasks";
import "./image-converter.css";

/** Images one screen takes at once (each is its own task; the ZIP is built in the browser). */
export const BATCH_LIMITS = { maxFiles: 20, maxTotalBytes: 250 * 1024 * 1024 } as const;

export interface ImageBatchLabels {
  /** The start button ("Convert to JPG", "Compress"). */
  action: string;
  busy: string;
  /** The result panel's title for this many finished files. */
  resultTitle: (count: number) => string;
  /** The download button of a one-file batch. */
  download: string;
  another: string;
}

interface ImageBatchPageProps {
  toolId: ToolId;
  labels: ImageBatchLabels;
  /** The tool's settings (quality…), hidden once results exist (spec §4). */
  settings: (disabled: boolean) => ReactNode;
  /** The form fields of one file's task. */
  fieldsFor: (file: File) => Readonly<Record<string, string>>;
  /** A line under a finished file. */
  noteFor?: (item: DoneItem) => string | null;
  /** Shows a before/after comparison of a finished file. */
  compare?: boolean;
}

function useObjectUrl(file: File | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return;
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return file ? url : null;
}

/**
 * An image screen for one or many files: a dropzone, the list of chosen images, the tool's settings
 * and a start button; then one result panel with every file's outcome, download one by one or all
 * as one ZIP, delete now, start again.
 */
export function ImageBatchPage({
  toolId,
  labels,
  settings,
  fieldsFor,
  noteFor,
  compare,
}: ImageBatchPageProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const tool = TOOLS[toolId];
  const batch = useBatchTasks(toolId);
  const [compared, setCompared] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const limits = { ...tool.input, ...BATCH_LIMITS };
  const shown = batch.done.find((item) => item.id === compared) ?? batch.done[0];
  const beforeUrl = useObjectUrl(compare ? shown?.file : undefined);

  const start = () => {
    if (batch.items.length === 0) {
      showErrorMessage(t, t("errors.selectImage"));
      return;
    }
    void batch.runAll(fieldsFor);
  };

  const startOver = () => {
    batch.clear();
    setCompared(null);
  };

  if (batch.finished) {
    const original = batch.done.reduce((sum, item) => sum + item.state.result.original_size, 0);
    const now = batch.done.reduce((sum, item) => sum + item.state.result.new_size, 0);
    const saved = original > 0 ? Math.round(((original - now) / original) * 1000) / 10 : 0;
    // A batch's total can hide a file that grew: it is named apart, and a total that grew says so.
    const grew = batch.done.filter(
      (item) => item.state.result.new_size > item.state.result.original_size,
    ).length;
    const facts = [
      {
        id: "files",
        label: t("imageBatch.files"),
        value: t("imageBatch.filesDone", { done: batch.done.length, total: batch.items.length }),
      },
      { id: "original", label: t("imageBatch.originalSize"), value: formatFileSize(original, t, language) },
      { id: "new", label: t("imageBatch.newSize"), value: formatFileSize(now, t, language) },
      {
        id: "change",
        label: t("imageBatch.change"),
        value:
          saved >= 0
            ? t("imageConverter.smaller", { percent: formatPercent(saved, language) })
            : t("imageConverter.larger", { percent: formatPercent(-saved, language) }),
      },
      ...(grew > 0
        ? [
            {
              id: "grew",
              label: t("imageBatch.grew"),
              value: t("imageBatch.countOfTotal", { count: grew, total: batch.done.length }),
            },
          ]
        : []),
    ];
    const expiresAt = batch.done.map((item) => item.state.expiresAt).sort()[0] ?? "";
    return (
      <ToolShell toolId={toolId}>
        <ResultPanel
          title={labels.resultTitle(batch.done.length)}
          facts={facts}
          downloadLabel={batch.done.length === 1 ? labels.download : t("imageBatch.downloadZip")}
          anotherLabel={labels.another}
          expiresAt={expiresAt}
          deleting={deleting}
          onDownload={() =>
            void downloadBatch(batch.done, `${tool.id}.zip`).catch(() =>
              showErrorMessage(t, t("errors.unexpected")),
            )
          }
          onDelete={() => {
            setDeleting(true);
            void batch.deleteAll().then((deleted) => {
              setDeleting(false);
              if (!deleted) return;
              startOver();
              showToast({ title: t("result.deleted"), description: t("result.deletedDescription") });
            });
          }}
          onAnother={startOver}
        >
          <BatchList
            items={batch.items}
            editable={false}
            onRemove={batch.remove}
            noteFor={noteFor}
            downloads={batch.done.length > 1}
            compared={shown?.id ?? null}
            onCompare={compare && batch.done.length > 1 ? setCompared : undefined}
          />
          {compare && shown && beforeUrl ? (
            <CompareSlider
              before={beforeUrl}
              after={shown.state.result.download_url}
              name={shown.file.name}
            />
          ) : null}
        </ResultPanel>
      </ToolShell>
    );
  }

  return (
    <ToolShell toolId={toolId}>
      <div className="converter">
        <div className="converter__files">
          <FileDropzone
            limits={limits}
            existing={batch.items.map((item) => item.file)}
            disabled={batch.busy}
            compact={batch.items.length > 0}
            onAccept={batch.add}
          />
          {batch.items.length > 0 ? (
            <BatchList items={batch.items} editable={!batch.busy} onRemove={batch.remove} />
          ) : null}
        </div>
        <div className="converter__settings">
          {settings(batch.busy)}
          <button
            type="button"
            className="button button--primary button--large button--block"
            disabled={batch.busy}
            aria-busy={batch.busy}
            onClick={start}
            data-testid="convert-button"
          >
            {batch.busy ? labels.busy : labels.action}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}
