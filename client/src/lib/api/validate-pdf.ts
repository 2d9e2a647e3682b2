import { API_PATHS, type ValidatePdfResponse, validatePdfResponseSchema } from "../contract";
import { ApiError, errorFromResponse, parseJson } from "./api-error";
import { withCsrf } from "./csrf";

/**
 * `POST /api/pdf/validate-pdf` (spec §7): the page count of one PDF, and whether the server had to
 * repair it. A refused PDF (encrypted, damaged, no pages…) rejects with the server's error code.
 * `password` opens a protected PDF (PDF_WRONG_PASSWORD when it does not); it goes in the body.
 */
export function validatePdf(
  file: File,
  signal?: AbortSignal,
  password?: string,
): Promise<ValidatePdfResponse> {
  return withCsrf(async (headers) => {
    const body = new FormData();
    body.append("file", file, file.name);
    if (password !== undefined && password !== "") body.append("password", password);
    let response: Response;
    try {
      response = await fetch(API_PATHS.validatePdf, {
        method: "POST",
        body,
        headers: { ...headers, Accept: "application/json" },
        credentials: "same-origin",
        signal: signal ?? null,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError({ message: "Network error", fallbackKey: "errors.network" });
    }
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(response.status, text, "errors.unexpected");
    const parsed = validatePdfResponseSchema.safeParse(parseJson(text));
    if (!parsed.success)
      throw new ApiError({ message: "Invalid validate-pdf response", status: response.status });
    return parsed.data;
  });
}
