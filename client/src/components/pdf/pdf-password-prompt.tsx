import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../lib/api/api-error";
import { apiErrorMessage } from "../../lib/show-error";
import { PasswordInput } from "./password-input";

/** Whether an analysis failed for want of the right password (the prompt can fix it). */
export function needsPassword(error: ApiError | null): boolean {
  return error?.code === "PDF_ENCRYPTED" || error?.code === "PDF_WRONG_PASSWORD";
}

interface PdfPasswordPromptProps {
  /** The failure that asks for a password (PDF_ENCRYPTED, or PDF_WRONG_PASSWORD after a try). */
  readonly error: ApiError;
  readonly disabled: boolean;
  readonly onPassword: (password: string) => void;
}

/**
 * The password of a protected PDF, asked where the file is shown: the tool opens the file with it
 * (its analysis runs again, and the job receives it), so the file need not be unlocked first.
 */
export function PdfPasswordPrompt({ error, disabled, onPassword }: PdfPasswordPromptProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  return (
    <form
      className="pdf-password-prompt"
      data-testid="pdf-password-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        if (password !== "") onPassword(password);
      }}
    >
      <PasswordInput
        label={t("pdfPassword.label")}
        value={password}
        onChange={setPassword}
        disabled={disabled}
        problem={apiErrorMessage(t, error)}
        autoComplete="current-password"
        testId="pdf-password"
      />
      <button
        type="submit"
        className="button button--small button--primary"
        disabled={disabled || password === ""}
        data-testid="pdf-password-open"
      >
        {t("pdfPassword.open")}
      </button>
    </form>
  );
}
