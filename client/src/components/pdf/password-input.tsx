import { useId } from "react";
import "./password-input.css";

interface PasswordInputProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** Shown in clear text (the screen's "show password" toggle). */
  readonly visible: boolean;
  readonly disabled?: boolean;
  readonly hint?: string | undefined;
  /** Why the value cannot be used, announced with the field. */
  readonly problem?: string | null | undefined;
  /** "new-password" when the user chooses one (browsers offer to generate and save it). */
  readonly autoComplete: "new-password" | "current-password" | "off";
  readonly testId: string;
}

/**
 * A password field with its label, hint and problem. The value stays in the page's memory only:
 * it goes to the server in the form body of the request that needs it, never in a URL.
 */
export function PasswordInput(props: PasswordInputProps) {
  const { label, value, onChange, visible, disabled = false, hint, problem, autoComplete, testId } = props;
  const id = useId();
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
    </div>
  );
}
