import type { TFunction } from "i18next";

const KB = 1024;
const MB = 1024 * 1024;

function decimals(language: string, digits: number, value: number): string {
  return new Intl.NumberFormat(language, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** Size display rule (spec §9): bytes under 1 KB, KB with one decimal under 1 MB, else MB with two. */
export function formatFileSize(bytes: number, t: TFunction, language: string): string {
  if (bytes < KB) return t("units.bytes", { value: new Intl.NumberFormat(language).format(bytes) });
  if (bytes < MB) return t("units.kb", { value: decimals(language, 1, bytes / KB) });
  return t("units.mb", { value: decimals(language, 2, bytes / MB) });
}

/** A whole-number limit such as "100 MB" for validation messages. */
export function formatLimit(bytes: number, t: TFunction, language: string): string {
  if (bytes >= MB && bytes % MB === 0) {
    return t("units.mb", { value: new Intl.NumberFormat(language).format(bytes / MB) });
  }
  return formatFileSize(bytes, t, language);
}

export function formatPercent(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
}
