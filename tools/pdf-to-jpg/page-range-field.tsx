import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { PageRangeError } from "../../client/src/lib/contract";
import tool from "./tool.ts";

/**
 * The optional page ranges of convert-pages mode, checked as the user types (spec §5): the spec's
 * message shows under the field while the text does not fit the document.
 */
export function PageRangeField({
  value,
  error,
  disabled,
  onChange,
}: {
  value: string;
  error: PageRangeError | null;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <div className="field pdf-converter__ranges">
      <label htmlFor={inputId}>
        {t("pageRanges")} <span className="field__required">{t("optional")}</span>
      </label>
      <input
        id={inputId}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={t("pageRangesPlaceholder")}
        value={value}
        disabled={disabled}
        aria-invalid={error !== null}
        aria-describedby={error === null ? hintId : `${errorId} ${hintId}`}
        onChange={(event) => onChange(event.target.value)}
        data-testid="page-ranges"
      />
      {error === null ? null : (
        <p id={errorId} className="pdf-converter__error" role="alert" data-testid="page-ranges-error">
          {shared(`errors.${error.key}`, { ...error })}
        </p>
      )}
      <p id={hintId} className="pdf-converter__hint">
        {t("pageRangesHint")}
      </p>
    </div>
  );
}
