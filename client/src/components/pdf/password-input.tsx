import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import "./password-input.css";

interface PasswordInputProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /**
   * Shown in clear text, decided elsewhere: a field that follows another field's "show" checkbox
   * (the repeated password). Without it the field has its own checkbox.
   */
  readonly visible?: boolean;
  /** With `visible`: the field shows the checkbox and reports its changes (one for several fields). */
  readonly onVisibleChange?: (visible: boolean) => void;
  /** The checkbox's label; "Show password" by default. */
  readonly showLabel?: string;
  readonly disabled?: boolean;
  readonly hint?: string | undefined;
  /** Why the value cannot be used, announced with the field. */
  readonly problem?: string | null | undefined;
  /** "new-password" when the user chooses one (browsers offer to generate and save it). */
  readonly autoComplete: "new-password" | "current-password" | "off";
  readonly testId: string;
}

/**
 * A password field with its label, hint, problem and "show password" checkbox. The value stays in
 * the page's memory only: it goes to the server in the form body of the request that needs it,
 * never in a URL.
 */
export function PasswordInput(props: PasswordInputProps) {
  const { label, value, onChange, disabled = false, hint, problem, autoComplete, testId } = props;
  const { t } = useTranslation();
  const id = useId();
  const [ownVisible, setOwnVisible] = useState(false);
  const visible = props.visible ?? ownVisible;
  // Its own checkbox, or one that drives several fields; a field that only follows has none.
  const onVisibleChange = props.visible === undefined ? setOwnVisible : props.onVisibleChange;
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [hint ? hintId : null, problem ? problemId : null].filter(Boolean).join(" ");
  return (
    <div className="field password-input">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={visible ? "text" : "password"}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        disabled={disabled}
        autoComplete={autoComplete}
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described || undefined}
        data-testid={testId}
      />
      {hint ? (
        <span className="password-input__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {problem ? (
        <span className="password-input__problem" id={problemId} role="alert">
          {problem}
        </span>
      ) : null}
      {onVisibleChange === undefined ? null : (
        <label className="password-input__show">
          <input
            type="checkbox"
            checked={visible}
            onChange={(event) => onVisibleChange(event.currentTarget.checked)}
            data-testid={`${testId}-show`}
          />
          {props.showLabel ?? t("pdfPassword.show")}
        </label>
      )}
    </div>
  );
}
