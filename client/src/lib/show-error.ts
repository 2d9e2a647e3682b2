import type { TFunction } from "i18next";
import type { ApiError } from "./api/api-error";
import { showToast } from "./toast-store";

/**
 * The destructive toast of a failed operation (spec §8): the situation as title, the translated
 * cause (the server's error code, or the client-side situation) as description.
 */
export function showApiError(t: TFunction, title: string, error: ApiError) {
  showToast({ variant: "destructive", title, description: t(error.localeKey) });
}

/** A destructive toast titled with the common error label. */
export function showErrorMessage(t: TFunction, description: string) {
  showToast({ variant: "destructive", title: t("errors.title"), description });
}
