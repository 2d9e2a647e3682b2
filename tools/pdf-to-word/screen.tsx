import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import type { ResultFact } from "../../client/src/components/tool/result-panel";
import { type DonePhase, SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { useToolTask } from "../../client/src/components/tool/use-tool-task";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import tool from "./tool.ts";
import "./pdf-to-word.css";
import { formatCount } from "../../client/src/lib/format/number";

/** What the result tells of the document made, in the order shown. */
const COUNTED = ["headings", "tables", "images"] as const;

/**
 * PDF to Word (spec §2): one PDF, the premium OCR option (scanned pages recognised into editable
 * text), convert with progress, then the DOCX to download. The chosen file stays after an error.
 */
export default function PdfToWordPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis, setPassword, passwordFields } = usePickedPdf();
  const [ocr, setOcr] = useState(false);
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.conversionFailed"), error));
  const { busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };

  const convert = (withOcr = ocr) => {
    if (file === null) {
      showErrorMessage(shared, shared("errors.selectPdf"));
      return;
    }
    setOcr(withOcr);
    void task.run([file], { ...passwordFields, ocr: String(withOcr) });
  };

  const number = (value: number) => formatCount(value, language);
  const result = (done: DonePhase) => {
    const { facts } = done.result;
    const counted: ResultFact[] = COUNTED.flatMap((id) => {
      const value = facts[id];
      return typeof value === "number" ? [{ id, label: t(`facts.${id}`), value: number(value) }] : [];
    });
    const scanned = facts.pages_without_text;
    const unreadable = facts.unreadable_pages;
    return (
      <TaskResultPanel
        phase={done}
        title={t("resultTitle")}
        anotherLabel={t("another")}
        facts={[
          ...counted,
          ...(typeof scanned === "number"
            ? [{ id: "scanned", label: t("facts.scanned"), value: number(scanned) }]
            : []),
          ...(typeof unreadable === "number"
            ? [{ id: "unreadable", label: t("facts.unreadable"), value: number(unreadable) }]
            : []),
          ...(facts.repaired === true
            ? [{ id: "repaired", label: t("repairedLabel"), value: t("repaired") }]
            : []),
        ]}
        deleteNow={task.deleteNow}
        onDeleted={() => pick(null)}
        onAnother={() => pick(null)}
      >
        {typeof unreadable === "number" ? (
          <div className="pdf-to-word__unreadable" data-testid="unreadable-text">
            <p>{t(ocr ? "unreadable.afterOcr" : "unreadable.message", { count: unreadable })}</p>
            {ocr ? null : (
              <button type="button" className="button button--outline" onClick={() => convert(true)}>
                {t("unreadable.convertWithOcr")}
              </button>
            )}
          </div>
        ) : null}
      </TaskResultPanel>
    );
  };

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="pdf-to-word"
      task={task}
      file={file}
      analysis={analysis}
      onPick={pick}
      onPassword={setPassword}
      result={result}
      action={{
        label: t("convert"),
        busyLabel: t("converting"),
        testId: "convert-button",
        disabled: analysis.state !== "ready",
        onStart: () => convert(),
      }}
    >
      <label className="pdf-to-word__ocr" data-testid="ocr-option">
        <input
          type="checkbox"
          name="ocr"
          checked={ocr}
          disabled={busy}
          onChange={(event) => setOcr(event.currentTarget.checked)}
        />
        <span>
          <span className="pdf-to-word__ocr-label">{t("ocr.label")}</span>{" "}
          <span className="pdf-to-word__badge">{t("ocr.badge")}</span>
          <span className="pdf-to-word__hint">{t("ocr.hint")}</span>
        </span>
      </label>
      <p className="pdf-to-word__keeps">{t("keeps")}</p>
    </SinglePdfScreen>
  );
}
