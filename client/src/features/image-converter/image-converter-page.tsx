import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FileDropzone } from "../../components/tool/file-dropzone";
import { ResultPanel } from "../../components/tool/result-panel";
import { TaskProgress } from "../../components/tool/task-progress";
import { ToolShell } from "../../components/tool/tool-shell";
import { downloadResult, useToolTask } from "../../components/tool/use-tool-task";
import type { QualityPreset, ToolId } from "../../lib/contract";
import { showApiError, showErrorMessage } from "../../lib/show-error";
import { converterSettings } from "./converter-tool";
import { ImagePreview } from "./image-preview";
import { QualityPicker } from "./quality-picker";
import { SizeComparison } from "./size-comparison";
import "./image-converter.css";

/** One image converter screen (png-to-jpg, jpg-to-png, webp-to-jpg), driven by the tool declaration. */
export default function ImageConverterPage({ toolId }: { toolId: ToolId }) {
  const { t } = useTranslation();
  const settings = converterSettings(toolId);
  const [file, setFile] = useState<File | null>(null);
  const [quality, setQuality] = useState<QualityPreset>(settings.defaultQuality);
  const task = useToolTask(toolId, (error) => showApiError(t, t("errors.imageConversionFailed"), error));
  const { phase, busy } = task;
  const format = settings.targetFormat;

  const startOver = () => {
    task.reset();
    setFile(null);
  };

  const convert = () => {
    if (!file) {
      showErrorMessage(t, t("errors.selectImage"));
      return;
    }
    void task.run([file], { quality });
  };

  if (phase.name === "done") {
    const { width, height, metadata_removed, first_frame_only } = phase.result.facts;
    const facts = [
      { id: "name", label: t("result.fileName"), value: phase.result.filename },
      ...(typeof width === "number" && typeof height === "number"
        ? [{ id: "dimensions", label: t("result.dimensions"), value: t("result.pixels", { width, height }) }]
        : []),
      // The engines never copy metadata and keep an animation's first frame; they say when it mattered.
      ...(metadata_removed === true
        ? [
            {
              id: "metadata",
              label: t("imageConverter.metadata"),
              value: t("imageConverter.metadataRemoved"),
            },
          ]
        : []),
      ...(first_frame_only === true
        ? [
            {
              id: "animation",
              label: t("imageConverter.animation"),
              value: t("imageConverter.firstFrameOnly"),
            },
          ]
        : []),
    ];
    return (
      <ToolShell toolId={toolId}>
        <ResultPanel
          title={t("imageConverter.resultTitle", { format })}
          facts={facts}
          downloadLabel={t("imageConverter.download", { format })}
          anotherLabel={t("imageConverter.another")}
          expiresAt={phase.expiresAt}
          deleting={phase.deleting}
          onDownload={() => downloadResult(phase.result)}
          onDelete={() => void task.deleteNow().then((deleted) => deleted && setFile(null))}
          onAnother={startOver}
        >
          <SizeComparison result={phase.result} />
        </ResultPanel>
      </ToolShell>
    );
  }

  return (
    <ToolShell toolId={toolId}>
      <div className="converter">
        {file ? (
          <ImagePreview file={file} disabled={busy} onRemove={startOver} />
        ) : (
          <FileDropzone
            limits={settings.tool.input}
            disabled={busy}
            onAccept={(files) => setFile(files[0] ?? null)}
          />
        )}
        <div className="converter__settings">
          <QualityPicker
            value={quality}
            disabled={busy}
            showsJpegQuality={settings.showsJpegQuality}
            onChange={setQuality}
          />
          <TaskProgress phase={phase} />
          <button
            type="button"
            className="button button--primary button--large button--block"
            disabled={busy}
            aria-busy={busy}
            onClick={convert}
            data-testid="convert-button"
          >
            {busy ? t("imageConverter.converting") : t("imageConverter.convert", { format })}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}
