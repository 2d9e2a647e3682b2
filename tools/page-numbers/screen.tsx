import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PreviewedOptions } from "../../client/src/components/pdf/page-preview";
import { PageRangesInput } from "../../client/src/components/pdf/page-ranges-input";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { type DonePhase, SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { pagesOf, parsePageRanges } from "../../client/src/lib/contract";
import { showApiError } from "../../client/src/lib/show-error";
import { pageLabel } from "./page-label.ts";
import tool, { NUMBER_DIGITS, NUMBER_FORMATS, NUMBER_LANGUAGES, NUMBER_POSITIONS } from "./tool.ts";
import "./page-numbers.css";

type Position = (typeof NUMBER_POSITIONS)[number];
type Format = (typeof NUMBER_FORMATS)[number];
type Digits = (typeof NUMBER_DIGITS)[number];
type Language = (typeof NUMBER_LANGUAGES)[number];

const isLanguage = (value: string): value is Language =>
  (NUMBER_LANGUAGES as readonly string[]).includes(value);

/** A whole number typed in a field, within [min, max], or null. */
function readNumber(text: string, min: number, max: number): number | null {
  const value = Number(text);
  return text.trim() !== "" && Number.isFinite(value) && value >= min && value <= max ? value : null;
}

/**
 * Add page numbers: one PDF; position, first number, pages, format and digits, size and margin;
 * the first numbered page previewed with its number before anything is sent.
 */
export default function PageNumbersPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis } = usePickedPdf();
  const [position, setPosition] = useState<Position>("bottom-center");
  const [format, setFormat] = useState<Format>("number");
  const [digits, setDigits] = useState<Digits>("latin");
  const [startText, setStartText] = useState("1");
  const [rangesText, setRangesText] = useState("");
  const [sizeText, setSizeText] = useState("11");
  const [marginText, setMarginText] = useState("28");
  const task = useToolTask(tool, (error) => showApiError(shared, t("failed"), error));
  const { busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };
  const startOver = () => pick(null);

  const pageCount = analysis.state === "ready" ? analysis.pages : null;
  const parsed = pageCount === null ? null : parsePageRanges(rangesText, pageCount);
  const rangeError = parsed !== null && !parsed.ok ? parsed.error : null;
  const numbered = parsed?.ok ? [...new Set(pagesOf(parsed.ranges))].sort((a, b) => a - b) : [];
  const start = readNumber(startText, 0, 1_000_000);
  const size = readNumber(sizeText, 6, 72);
  const margin = readNumber(marginText, 0, 144);
  const wordsLanguage: Language = isLanguage(language) ? language : "en";
  const style = { format, digits, language: wordsLanguage };
  const first = numbered[0];
  const valid = file !== null && first !== undefined && start !== null && size !== null && margin !== null;

  const run = () => {
    if (!valid || file === null) return;
    void task.run([file], {
      position,
      start: String(start),
      pages: rangesText.replace(/\s+/g, ""),
      format,
      digits,
      language: wordsLanguage,
      size: String(size),
      margin: String(margin),
    });
  };

  const numberField = (
    id: string,
    label: string,
    value: string,
    set: (text: string) => void,
    ok: boolean,
  ) => (
    <div className="field page-numbers__number">
      <label htmlFor={`page-numbers-${id}`}>{label}</label>
      <input
        id={`page-numbers-${id}`}
        type="number"
        inputMode="numeric"
        value={value}
        disabled={busy}
        aria-invalid={!ok}
        onChange={(event) => set(event.target.value)}
        data-testid={`page-numbers-${id}`}
      />
    </div>
  );

  const result = (done: DonePhase) => {
    const numberedPages = done.result.facts.numbered_pages;
    const facts = [
      ...documentFacts(done.result, shared, language),
      ...(typeof numberedPages === "number"
        ? [{ id: "numbered", label: t("numberedPages"), value: String(numberedPages) }]
        : []),
    ];
    return (
      <ResultPanel
        title={t("resultTitle")}
        facts={facts}
        downloadLabel={shared("result.download")}
        anotherLabel={t("another")}
        {...finishedTaskActions(task, done, () => setFile(null))}
        onAnother={startOver}
      />
    );
  };

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="page-numbers"
      task={task}
      file={file}
      analysis={analysis}
      onPick={pick}
      result={result}
      action={{
        label: t("number"),
        busyLabel: t("numbering"),
        testId: "page-numbers-button",
        disabled: !valid,
        onStart: run,
      }}
    >
      {file !== null && pageCount !== null ? (
        <PreviewedOptions
          file={file}
          preview={
            first !== undefined && start !== null && size !== null && margin !== null
              ? {
                  page: first,
                  overlay: (scale) => (
                    <span
                      className={`page-numbers__label page-numbers__label--${position}`}
                      style={{
                        fontSize: size * scale,
                        marginBlock: margin * scale,
                        marginInline: position.endsWith("center") ? 0 : margin * scale,
                      }}
                      data-testid="page-number-preview"
                    >
                      {pageLabel(start, start + numbered.length - 1, style)}
                    </span>
                  ),
                }
              : null
          }
        >
          <ChoiceGroup
            legend={t("position.legend")}
            name="position"
            choices={NUMBER_POSITIONS.map((value) => ({ value, label: t(`position.${value}`) }))}
            value={position}
            disabled={busy}
            onChange={setPosition}
          />
          <ChoiceGroup
            legend={t("format.legend")}
            name="format"
            choices={NUMBER_FORMATS.map((value) => ({
              value,
              label: pageLabel(1, Math.max(pageCount, 2), { ...style, format: value }),
            }))}
            value={format}
            disabled={busy}
            onChange={setFormat}
          />
          <ChoiceGroup
            legend={t("digits.legend")}
            name="digits"
            choices={NUMBER_DIGITS.map((value) => ({
              value,
              label: t(`digits.${value}`),
              hint: pageLabel(123, 123, { ...style, format: "number", digits: value }),
            }))}
            value={digits}
            disabled={busy}
            onChange={setDigits}
          />
          <div className="previewed-options__row">
            {numberField("start", t("start"), startText, setStartText, start !== null)}
            {numberField("size", t("size"), sizeText, setSizeText, size !== null)}
            {numberField("margin", t("margin"), marginText, setMarginText, margin !== null)}
          </div>
          <PageRangesInput
            label={t("pages.label")}
            hint={t("pages.hint")}
            placeholder={t("pages.placeholder")}
            value={rangesText}
            error={rangeError}
            disabled={busy}
            onChange={setRangesText}
          />
        </PreviewedOptions>
      ) : null}
    </SinglePdfScreen>
  );
}
