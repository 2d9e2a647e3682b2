import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PdfConverterForm } from "../../client/src/components/pdf/pdf-converter-form";
import { usePagePicks } from "../../client/src/components/pdf/use-page-picks";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import type { ResultFact } from "../../client/src/components/tool/result-panel";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { downloadResult, useToolTask } from "../../client/src/components/tool/use-tool-task";
import type { TaskResult } from "../../client/src/lib/contract";
import { formatCount } from "../../client/src/lib/format/number";
import { showErrorMessage } from "../../client/src/lib/show-error";
import { showToast } from "../../client/src/lib/toast-store";
import { PageRangeField } from "./page-range-field";
import tool, { CONVERSION_MODES, DEFAULT_RESOLUTION, RESOLUTIONS, type Resolution } from "./tool.ts";

type Mode = (typeof CONVERSION_MODES)[number];

/**
 * PDF to JPG (spec §2, §4): pick one PDF, which is analysed at once (page count); then the mode,
 * the page ranges (convert-pages, checked as typed, or picked on the thumbnails) and the
 * resolution; convert with progress; on success the download starts and the result stays offered.
 */
export default function PdfToJpgScreen() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis, describe, setPassword, passwordFields } = usePickedPdf();
  const [mode, setMode] = useState<Mode>("convert-pages");
  const [dpi, setDpi] = useState<Resolution>(DEFAULT_RESOLUTION);
  const pages = analysis.state === "ready" ? analysis.pages : null;
  const task = useToolTask(tool, (error) =>
    showToast({
      variant: "destructive",
      title: shared("errors.pdfToJpgFailed"),
      description: describe(error),
    }),
  );
  const { phase, busy } = task;

  // Spec §2: on success the browser goes to the download address.
  const doneTask = phase.name === "done" ? phase.result : null;
  useEffect(() => {
    if (doneTask !== null) downloadResult(doneTask);
  }, [doneTask]);

  const picks = usePagePicks(pages);
  const rangeError = mode === "convert-pages" ? picks.error : null;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
    picks.clear();
  };

  const convert = () => {
    if (file === null) {
      showErrorMessage(shared, shared("errors.selectPdf"));
      return;
    }
    const fields: Record<string, string> = { conversion_mode: mode };
    if (mode === "convert-pages") {
      fields.dpi = String(dpi);
      if (picks.ranges.trim() !== "") fields.page_ranges = picks.ranges.trim();
    }
    void task.run([file], { ...fields, ...passwordFields });
  };

  // What the result panel says of a finished conversion after file, pages and size: what was made.
  const resultFacts = (result: TaskResult): ResultFact[] => {
    const number = (value: number) => formatCount(value, language);
    const { pages_rendered: rendered, images_extracted: extracted, dpi: used, repaired } = result.facts;
    return [
      ...(typeof rendered === "number"
        ? [{ id: "pages", label: t("pagesRendered"), value: number(rendered) }]
        : []),
      ...(typeof extracted === "number"
        ? [{ id: "images", label: t("imagesExtracted"), value: number(extracted) }]
        : []),
      ...(typeof used === "number"
        ? [{ id: "dpi", label: t("resolution"), value: t("dpi", { dpi: used }) }]
        : []),
      // MuPDF rebuilt a damaged file: the user should look at the result.
      ...(repaired === true ? [{ id: "repaired", label: t("repairedLabel"), value: t("repaired") }] : []),
    ];
  };

  if (phase.name === "done") {
    return (
      <ToolShell toolId={tool.id}>
        <TaskResultPanel
          phase={phase}
          title={t("resultTitle", {
            count: phase.result.facts.pages_rendered ?? phase.result.facts.images_extracted ?? 1,
          })}
          facts={resultFacts(phase.result)}
          anotherLabel={t("another")}
          deleteNow={task.deleteNow}
          onDeleted={() => pick(null)}
          onAnother={() => pick(null)}
        />
      </ToolShell>
    );
  }

  const canConvert = pages !== null && rangeError === null && !busy;
  return (
    <ToolShell toolId={tool.id}>
      <PdfConverterForm
        toolId={tool.id}
        onPassword={setPassword}
        limits={tool.input}
        file={file}
        analysis={analysis}
        phase={phase}
        busy={busy}
        canConvert={canConvert}
        onPick={pick}
        onConvert={convert}
        selected={mode === "convert-pages" ? picks.selected : undefined}
        onToggle={mode === "convert-pages" && !busy ? picks.toggle : undefined}
      >
        <ChoiceGroup
          name="conversion_mode"
          legend={t("mode")}
          value={mode}
          disabled={busy}
          onChange={setMode}
          choices={CONVERSION_MODES.map((value) => ({
            value,
            label: t(`modes.${value}.label`),
            hint: t(`modes.${value}.hint`),
          }))}
        />
        {mode === "convert-pages" ? (
          <>
            <PageRangeField
              value={picks.ranges}
              error={rangeError}
              disabled={busy}
              onChange={picks.setRanges}
            />
            <ChoiceGroup
              name="dpi"
              legend={t("resolution")}
              value={dpi}
              disabled={busy}
              onChange={setDpi}
              choices={RESOLUTIONS.map((value) => ({
                value,
                label: t(`resolutions.${value}`),
                hint: t("dpi", { dpi: value }),
              }))}
            />
          </>
        ) : null}
      </PdfConverterForm>
    </ToolShell>
  );
}
