import type { TFunction } from "i18next";
import { formatCount, numberFormat } from "./number";

const KB = 1024;
const MB = 1024 * 1024;

/** Size display rule (spec §9): bytes under 1 KB, KB with one decimal under 1 MB, else MB with two. */
export function formatFileSize(bytes: number, t: TFunction, language: string): string {
  if (bytes < KB) return t("units.bytes", { value: formatCount(bytes, language) });
  if (bytes < MB) return t("units.kb", { value: numberFormat(language, 1).format(bytes / KB) });
  return t("units.mb", { value: numberFormat(language, 2).format(bytes / MB) });
}

/** A whole-number limit such as "100 MB" for validation messages. */
export function formatLimit(bytes: number, t: TFunction, language: string): string {
  if (bytes >= MB && bytes % MB === 0) return t("units.mb", { value: formatCount(bytes / MB, language) });
  return formatFileSize(bytes, t, language);
}

export function formatPercent(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
}
