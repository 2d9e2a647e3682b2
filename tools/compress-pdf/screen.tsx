import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { SizeComparison } from "../../client/src/features/image-converter/size-comparison";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import { COMPRESSION_LEVELS } from "../../engines/pdf/compress-levels.ts";
import tool from "./tool.ts";
import "./compress-pdf.css";

/** The levels in the order shown, strongest compression last (spec default: medium). */
const LEVELS = ["high", "medium", "low"] as const;
type Level = (typeof LEVELS)[number];

/** Compress PDF: one PDF, a level with its meaning, compress with progress, sizes before and after. */
export default function CompressPdfPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  // Shared helpers take the common namespace.
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis, setPassword, passwordFields } = usePickedPdf();
  const [level, setLevel] = useState<Level>("medium");
  // On error the file stays selected so the user can retry.
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.compressionFailed"), error));
  const { phase, busy } = task;

  const startOver = () => {
    task.reset();
    setFile(null);
  };

  const compress = () => {
    if (!file) {
      showErrorMessage(shared, shared("errors.noFile"));
      return;
    }
    void task.run([file], { quality: level, ...passwordFields });
  };

  if (phase.name === "done") {
    const { already_optimized: alreadyOptimized } = phase.result.facts;
    const facts = [
      ...documentFacts(phase.result, shared, language),
      { id: "level", label: t("levelLabel"), value: t(`levels.${level}.label`) },
    ];
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={alreadyOptimized === true ? t("alreadyOptimizedTitle") : t("resultTitle")}
          facts={facts}
          downloadLabel={t("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => setFile(null))}
          onAnother={startOver}
        >
          {alreadyOptimized === true ? (
            <p className="compress-pdf__note" data-testid="already-optimized">
              {t("alreadyOptimized")}
            </p>
          ) : (
            <SizeComparison result={phase.result} />
          )}
        </ResultPanel>
      </ToolShell>
    );
  }

  return (
    <ToolShell toolId={tool.id}>
      <div className="compress-pdf">
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => {
            task.reset();
            setFile(files[0] ?? null);
          }}
        />
        {file ? (
          <ChosenPdf
            file={file}
            analysis={analysis}
            disabled={busy}
            onRemove={startOver}
            onPassword={setPassword}
          />
        ) : null}
        <ChoiceGroup
          legend={t("levelLabel")}
          name="quality"
          choices={LEVELS.map((choice) => ({
            value: choice,
            label: t(`levels.${choice}.label`),
            hint: t(`levels.${choice}.hint`, {
              dpi: COMPRESSION_LEVELS[choice].targetDpi,
              quality: COMPRESSION_LEVELS[choice].jpegQuality,
            }),
          }))}
          value={level}
          disabled={busy}
          onChange={setLevel}
        >
          <p className="compress-pdf__note">{t("keeps")}</p>
        </ChoiceGroup>
        <TaskActions
          phase={phase}
          busy={busy}
          disabled={analysis.state !== "ready"}
          label={t("compress")}
          busyLabel={t("compressing")}
          onStart={compress}
          testId="compress-button"
        />
      </div>
    </ToolShell>
  );
}
