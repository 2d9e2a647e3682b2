import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../lib/api/api-error";
import { apiErrorMessage } from "../../lib/show-error";
import { showToast } from "../../lib/toast-store";
import { setPdfPassword } from "./pdf-pages";
import { needsPassword } from "./pdf-password-prompt";
import { type PdfAnalysis, usePdfAnalysis } from "./use-pdf-analysis";

export interface PickedPdf {
  readonly file: File | null;
  readonly setFile: (file: File | null) => void;
  /** Spec §4: the page count, read as soon as the file is picked. */
  readonly analysis: PdfAnalysis;
  /** A failure's translated message, naming the picked file. */
  readonly describe: (error: ApiError) => string;
  /** Opens a protected PDF with the password the user typed (ChosenPdf's `onPassword`). */
  readonly setPassword: (password: string) => void;
  /** The job's password field (`field`) when the user gave one, else nothing. */
  readonly passwordFields: Readonly<Record<string, string>>;
}

/**
 * The one PDF of a one-file PDF tool and its analysis: a PDF the server cannot open (damage, no
 * pages) is named in a toast as soon as it is found, before any job is uploaded. A protected one
 * asks for its password instead: with it, the analysis, the previews and the job open the file.
 * `field` names the job's option that carries it (Protect's own `password` is the new one).
 */
export function usePickedPdf(field: "password" | "input_password" = "password"): PickedPdf {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<{ file: File | null; password?: string | undefined }>({ file: null });
  const { file, password } = picked;
  const describe = (error: ApiError) =>
    file === null
      ? apiErrorMessage(t, error)
      : t("errors.fileProblem", { name: file.name, message: apiErrorMessage(t, error) });
  const analysis = usePdfAnalysis(
    file,
    (error) => {
      if (needsPassword(error)) return;
      showToast({ variant: "destructive", title: t("errors.analyzeFailed"), description: describe(error) });
    },
    password,
  );
  return {
    file,
    setFile: (next) => setPicked({ file: next }),
    analysis,
    describe,
    setPassword: (next) => {
      if (file !== null) setPdfPassword(file, next);
      setPicked({ file, password: next });
    },
    passwordFields: password === undefined ? {} : { [field]: password },
  };
}
