import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import type { PageRangeError } from "../../lib/contract";
import "./pdf-converter.css";

interface PageRangesInputProps {
  readonly label: ReactNode;
  readonly hint: string;
  readonly placeholder: string;
  readonly value: string;
  /** The text checked against the document (parsePageRanges); its spec message shows under the field. */
  readonly error: PageRangeError | null;
  readonly disabled: boolean;
  readonly onChange: (value: string) => void;
}

/** An optional page-ranges field ("1-3,5"; blank: every page) in a tool's own words. */
export function PageRangesInput({
  label,
  hint,
  placeholder,
  value,
  error,
  disabled,
  onChange,
}: PageRangesInputProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <div className="field pdf-converter__ranges">
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        disabled={disabled}
        aria-invalid={error !== null}
        aria-describedby={error === null ? hintId : `${errorId} ${hintId}`}
        onChange={(event) => onChange(event.target.value)}
        data-testid="page-ranges"
      />
      {error === null ? null : (
        <p id={errorId} className="pdf-converter__error" role="alert" data-testid="page-ranges-error">
          {t(`errors.${error.key}`, { ...error })}
        </p>
      )}
      <p id={hintId} className="pdf-converter__hint">
        {hint}
      </p>
    </div>
  );
}
