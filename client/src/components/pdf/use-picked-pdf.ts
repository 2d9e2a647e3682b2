import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiError } from "../../lib/api/api-error";
import { apiErrorMessage } from "../../lib/show-error";
import { showToast } from "../../lib/toast-store";
import { type PdfAnalysis, usePdfAnalysis } from "./use-pdf-analysis";

export interface PickedPdf {
  readonly file: File | null;
  readonly setFile: (file: File | null) => void;
  /** Spec §4: the page count, read as soon as the file is picked. */
  readonly analysis: PdfAnalysis;
  /** A failure's translated message, naming the picked file. */
  readonly describe: (error: ApiError) => string;
}

/**
 * The one PDF of a one-file PDF tool and its analysis: a PDF the server cannot open (password,
 * damage, no pages) is named in a toast as soon as it is found, before any job is uploaded.
 */
export function usePickedPdf(): PickedPdf {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const describe = (error: ApiError) =>
    file === null
      ? apiErrorMessage(t, error)
      : t("errors.fileProblem", { name: file.name, message: apiErrorMessage(t, error) });
  const analysis = usePdfAnalysis(file, (error) =>
    showToast({ variant: "destructive", title: t("errors.analyzeFailed"), description: describe(error) }),
  );
  return { file, setFile, analysis, describe };
}
