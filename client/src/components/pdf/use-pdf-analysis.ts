import { useEffect, useRef, useState } from "react";
import { type ApiError, toApiError } from "../../lib/api/api-error";
import { validatePdf } from "../../lib/api/validate-pdf";

/** Where the analysis of a picked PDF is (spec §4: analyzing, then the page count or an error). */
export type PdfAnalysis =
  | { readonly state: "idle" }
  | { readonly state: "analyzing" }
  | { readonly state: "ready"; readonly pages: number; readonly repaired: boolean }
  | { readonly state: "error"; readonly error: ApiError };

/**
 * Analyses `file` as soon as it is picked: the server opens it with the same engine the tools use,
 * so a PDF that passes here converts, and one that fails is named before any job is uploaded.
 * A new file (or none) cancels the request in flight. `onError` hears of each failed analysis once,
 * as it fails (the screen names the file in a toast). A `password` opens a protected PDF: the
 * analysis runs again with it.
 */
export function usePdfAnalysis(
  file: File | null,
  onError?: (error: ApiError) => void,
  password?: string,
): PdfAnalysis {
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;
  const [analysis, setAnalysis] = useState<{
    file: File | null;
    password?: string | undefined;
    value: PdfAnalysis;
  }>({
    file: null,
    value: { state: "idle" },
  });
  useEffect(() => {
    if (file === null) return;
    const controller = new AbortController();
    setAnalysis({ file, password, value: { state: "analyzing" } });
    validatePdf(file, controller.signal, password).then(
      (answer) =>
        setAnalysis({
          file,
          password,
          value: { state: "ready", pages: answer.total_pages, repaired: answer.repaired },
        }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = toApiError(error);
        setAnalysis({ file, password, value: { state: "error", error: failure } });
        onErrorRef.current?.(failure);
      },
    );
    return () => controller.abort();
  }, [file, password]);
  if (file === null) return { state: "idle" };
  // Until the effect runs for a new file, its analysis is starting, never the previous file's result.
  return analysis.file === file && analysis.password === password ? analysis.value : { state: "analyzing" };
}
