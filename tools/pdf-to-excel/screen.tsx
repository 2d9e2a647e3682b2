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
import { PageRangeField } from "../pdf-to-jpg/page-range-field";
import tool from "./tool.ts";

const CONTENTS = ["tables", "tables-and-text"] as const;
type Contents = (typeof CONTENTS)[number];

/**
 * PDF to Excel (spec §2, §4, §5): pick one PDF, which is analysed at once (page count); optional
 * page ranges (checked as typed, or picked on the previews) and whether the text outside the
 * tables gets a sheet too; convert with progress per page; on success the download starts and the
 * result stays offered with what was found.
 */
export default function PdfToExcelScreen() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis, describe, setPassword, passwordFields } = usePickedPdf();
  const [contents, setContents] = useState<Contents>("tables");
  const pages = analysis.state === "ready" ? analysis.pages : null;
  const task = useToolTask(tool, (error) =>
    showToast({ variant: "destructive", title: t("failed"), description: describe(error) }),
  );
  const { phase, busy } = task;

  const doneTask = phase.name === "done" ? phase.result : null;
  useEffect(() => {
    if (doneTask !== null) downloadResult(doneTask);
  }, [doneTask]);

  const picks = usePagePicks(pages);
  const rangeError = picks.error;

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
    const fields: Record<string, string> = { text_sheet: String(contents === "tables-and-text") };
    if (picks.ranges.trim() !== "") fields.page_ranges = picks.ranges.trim();
    void task.run([file], { ...fields, ...passwordFields });
  };

  const resultFacts = (result: TaskResult): ResultFact[] => {
    const number = (value: unknown) => formatCount(typeof value === "number" ? value : 0, language);
    const { tables, numbers, dates, pages_converted, pages_without_text, repaired } = result.facts;
    return [
      { id: "converted", label: t("pagesConverted"), value: number(pages_converted) },
      { id: "tables", label: t("tablesFound"), value: number(tables) },
      {
        id: "numbers",
        label: t("typedCells"),
        value: t("typedCellsValue", { numbers: number(numbers), dates: number(dates) }),
      },
      ...(typeof pages_without_text === "number"
        ? [
            {
              id: "no-text",
              label: t("pagesWithoutText"),
              value: t("pagesWithoutTextValue", {
                count: pages_without_text,
                formatted: number(pages_without_text),
              }),
            },
          ]
        : []),
      ...(repaired === true ? [{ id: "repaired", label: t("repairedLabel"), value: t("repaired") }] : []),
    ];
  };

  if (phase.name === "done") {
    const found = phase.result.facts.tables;
    return (
      <ToolShell toolId={tool.id}>
        <TaskResultPanel
          phase={phase}
          title={
            typeof found === "number" && found > 0 ? t("resultTitle", { count: found }) : t("resultNoTables")
          }
          anotherLabel={t("another")}
          facts={resultFacts(phase.result)}
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
        selected={picks.selected}
        onToggle={busy ? undefined : picks.toggle}
      >
        <PageRangeField value={picks.ranges} error={rangeError} disabled={busy} onChange={picks.setRanges} />
        <ChoiceGroup
          name="contents"
          legend={t("contents")}
          value={contents}
          disabled={busy}
          onChange={setContents}
          choices={CONTENTS.map((value) => ({
            value,
            label: t(`contentChoices.${value}.label`),
            hint: t(`contentChoices.${value}.hint`),
          }))}
        />
      </PdfConverterForm>
    </ToolShell>
  );
}
