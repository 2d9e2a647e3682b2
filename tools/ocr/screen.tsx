import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePdfAnalysis } from "../../client/src/components/pdf/use-pdf-analysis";
import type { ResultFact } from "../../client/src/components/tool/result-panel";
import { SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { useToolTask } from "../../client/src/components/tool/use-tool-task";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { formatCount } from "../../client/src/lib/format/number";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import { isLanguageCode, LANGUAGES, type LanguageCode } from "../../contract/languages.ts";
import tool from "./tool.ts";
import "./ocr.css";

/** What the result tells, in the order shown. */
const COUNTED = ["pages_recognised", "words", "pages_turned", "pages_with_text"] as const;

function isPdf(file: File): boolean {
  return file.type === "application/pdf" || /\.pdf$/i.test(file.name);
}

/**
 * PDF OCR: one scanned PDF or image, the languages of its text (preset to the page's language;
 * none chosen: detected page by page), whether pages that already have text are redone, then the
 * searchable PDF to download. Progress moves on as each page is recognised.
 */
export default function OcrPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [file, setFile] = useState<File | null>(null);
  const pdf = file !== null && isPdf(file) ? file : null;
  const analysis = usePdfAnalysis(pdf);
  const [languages, setLanguages] = useState<readonly LanguageCode[]>(() =>
    isLanguageCode(language) ? [language] : [],
  );
  const [redo, setRedo] = useState(false);
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.conversionFailed"), error));
  const { busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };
  const toggle = (code: LanguageCode, on: boolean) =>
    setLanguages((chosen) =>
      LANGUAGES.map((l) => l.code).filter((c) => (c === code ? on : chosen.includes(c))),
    );

  const start = () => {
    if (file === null) {
      showErrorMessage(shared, t("selectFile"));
      return;
    }
    void task.run([file], { languages: languages.join(","), redo_text: String(redo) });
  };

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="ocr"
      task={task}
      file={file}
      pdf={pdf}
      analysis={analysis}
      onPick={pick}
      result={(done) => {
        const { facts } = done.result;
        const counted: ResultFact[] = COUNTED.flatMap((id) => {
          const value = facts[id];
          return typeof value === "number" && (value > 0 || id === "words")
            ? [{ id, label: t(`facts.${id}`), value: formatCount(value, language) }]
            : [];
        });
        return (
          <TaskResultPanel
            phase={done}
            title={t("resultTitle")}
            anotherLabel={t("another")}
            facts={counted}
            deleteNow={task.deleteNow}
            onDeleted={() => pick(null)}
            onAnother={() => pick(null)}
          />
        );
      }}
      action={{
        label: t("start"),
        busyLabel: t("working"),
        testId: "ocr-button",
        disabled: file === null || (pdf !== null && analysis.state !== "ready"),
        onStart: start,
      }}
    >
      {file && !pdf ? (
        <div className="chosen-pdf" data-testid="chosen-image">
          <span className="chosen-pdf__icon" aria-hidden="true">
            {(/\.([a-z0-9]{1,4})$/i.exec(file.name)?.[1] ?? "IMG").toUpperCase()}
          </span>
          <span className="chosen-pdf__text">
            <span className="chosen-pdf__name" title={file.name}>
              {file.name}
            </span>
            <span className="chosen-pdf__meta">{formatFileSize(file.size, shared, language)}</span>
          </span>
          <button
            type="button"
            className="button button--small button--danger-outline"
            onClick={() => pick(null)}
            disabled={busy}
            aria-label={shared("fileList.remove", { name: file.name })}
          >
            {shared("chosenPdf.remove")}
          </button>
        </div>
      ) : null}
      <fieldset className="ocr__languages" disabled={busy} data-testid="ocr-languages">
        <legend className="ocr__legend">{t("languages.legend")}</legend>
        <div className="ocr__language-list">
          {LANGUAGES.map(({ code, name }) => (
            <label key={code} className="ocr__language" lang={code}>
              <input
                type="checkbox"
                name="languages"
                value={code}
                checked={languages.includes(code)}
                onChange={(event) => toggle(code, event.currentTarget.checked)}
              />
              <span>{name}</span>
            </label>
          ))}
        </div>
        <p className="ocr__hint">{languages.length === 0 ? t("languages.auto") : t("languages.hint")}</p>
      </fieldset>
      <label className="ocr__redo">
        <input
          type="checkbox"
          name="redo_text"
          checked={redo}
          disabled={busy}
          onChange={(event) => setRedo(event.currentTarget.checked)}
        />
        <span>
          <span className="ocr__redo-label">{t("redo.label")}</span>
          <span className="ocr__hint">{t("redo.hint")}</span>
        </span>
      </label>
      <p className="ocr__keeps">{t("keeps")}</p>
    </SinglePdfScreen>
  );
}
