import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { RangesField } from "./page-picks";
import tool, { MAX_PAGES_PER_PART } from "./tool.ts";

export type SplitMode = "ranges" | "every-page" | "every-n";

const MODES = [
  { mode: "ranges", label: "mode.ranges", hint: "mode.rangesHint" },
  { mode: "every-page", label: "mode.everyPage", hint: "mode.everyPageHint" },
  { mode: "every-n", label: "mode.everyN", hint: "mode.everyNHint" },
] as const;

interface SplitOptionsProps {
  mode: SplitMode;
  rangesText: string;
  ranges: RangesField;
  perPartText: string;
  perPartValid: boolean;
  pageCount: number;
  disabled: boolean;
  onMode: (mode: SplitMode) => void;
  onRanges: (text: string) => void;
  onPerPart: (text: string) => void;
}

/** The mode choice, then the ranges field (checked as the user types) or the pages-per-part number. */
export function SplitOptions(props: SplitOptionsProps) {
  const { t } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const rangesId = useId();
  const perPartId = useId();
  const messageId = useId();
  const { ranges } = props;
  const rangesMessage =
    ranges.state === "invalid" ? shared(`errors.${ranges.error.key}`, { ...ranges.error }) : null;
  return (
    <div className="split-options">
      <fieldset className="segmented" disabled={props.disabled}>
        <legend className="segmented__legend">{t("mode.legend")}</legend>
        <div className="segmented__options">
          {MODES.map(({ mode, label, hint }) => (
            <label key={mode} className="segmented__option">
              <input
                type="radio"
                name="split-mode"
                value={mode}
                checked={props.mode === mode}
                onChange={() => props.onMode(mode)}
              />
              <span className="segmented__text">
                <span className="segmented__label">{t(label)}</span>
                <span className="segmented__hint">{t(hint)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {props.mode === "ranges" ? (
        <div className="field split-options__field">
          <label htmlFor={rangesId}>{t("ranges.label")}</label>
          <input
            id={rangesId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            spellCheck={false}
            placeholder={t("ranges.placeholder")}
            value={props.rangesText}
            disabled={props.disabled}
            aria-invalid={ranges.state === "invalid"}
            aria-describedby={messageId}
            onChange={(event) => props.onRanges(event.target.value)}
            data-testid="page-ranges"
          />
          <p
            id={messageId}
            className={rangesMessage ? "split-options__error" : "split-options__hint"}
            aria-live="polite"
            data-testid="page-ranges-message"
          >
            {rangesMessage ?? t("ranges.hint")}
          </p>
        </div>
      ) : null}
      {props.mode === "every-n" ? (
        <div className="field split-options__field">
          <label htmlFor={perPartId}>{t("everyN.label")}</label>
          <input
            id={perPartId}
            type="number"
            min={1}
            max={Math.min(MAX_PAGES_PER_PART, props.pageCount)}
            step={1}
            value={props.perPartText}
            disabled={props.disabled}
            aria-invalid={!props.perPartValid}
            aria-describedby={props.perPartValid ? undefined : messageId}
            onChange={(event) => props.onPerPart(event.target.value)}
            data-testid="pages-per-part"
          />
          {props.perPartValid ? null : (
            <p id={messageId} className="split-options__error" aria-live="polite">
              {t("everyN.invalid", { max: Math.min(MAX_PAGES_PER_PART, props.pageCount) })}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
