import type { TFunction } from "i18next";
import type { ApiError } from "./api/api-error";
import type { PageRangeError } from "./contract";
import { showToast } from "./toast-store";

const PAGE_RANGE_KEYS: ReadonlySet<string> = new Set<PageRangeError["key"]>([
  "invalidPageRanges",
  "invalidRange",
  "invalidPage",
  "invalidRangeFormat",
  "invalidPageNumber",
]);

/**
 * The translated cause of a failed call: the spec's page-range message when the server refused the
 * ranges (it names the key and values, see contract/page-ranges.ts), the unreadable-image message
 * naming the format when the server names one, else the error code's message.
 */
export function apiErrorMessage(t: TFunction, error: ApiError): string {
  const key = error.context.page_ranges_error;
  if (error.code === "INVALID_OPTIONS" && typeof key === "string" && PAGE_RANGE_KEYS.has(key)) {
    return t(`errors.${key as PageRangeError["key"]}`, { ...error.context });
  }
  // An image the container could not decode: the message names its format (HEIC, TIFF, BMP…).
  const format = error.context.image_format;
  if (error.code === "IMAGE_DAMAGED" && typeof format === "string") {
    return t("errors.imageUnreadable", { format });
  }
  return t(error.localeKey);
}

/**
 * The destructive toast of a failed operation (spec §8): the situation as title, the translated
 * cause (the server's error code, or the client-side situation) as description.
 */
export function showApiError(t: TFunction, title: string, error: ApiError) {
  showToast({ variant: "destructive", title, description: apiErrorMessage(t, error) });
}

/** A destructive toast titled with the common error label. */
export function showErrorMessage(t: TFunction, description: string) {
  showToast({ variant: "destructive", title: t("errors.title"), description });
}
