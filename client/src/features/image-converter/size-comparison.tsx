import { useTranslation } from "react-i18next";
import type { TaskResult } from "../../lib/contract";
import { formatFileSize, formatPercent } from "../../lib/format/file-size";

/** Original size → new size, and how much smaller (or larger) the result is. */
export function SizeComparison({ result }: { result: TaskResult }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const percent = result.size_reduction_percent;
  const change =
    percent >= 0
      ? t("imageConverter.smaller", { percent: formatPercent(percent, language) })
      : t("imageConverter.larger", { percent: formatPercent(-percent, language) });
  return (
    <div className="size-comparison" data-testid="size-comparison">
      <div className="size-comparison__item">
        <span className="size-comparison__label">{t("imageConverter.before")}</span>
        <span className="size-comparison__value">{formatFileSize(result.original_size, t, language)}</span>
      </div>
      <span className="size-comparison__arrow" aria-hidden="true">
        →
      </span>
      <div className="size-comparison__item">
        <span className="size-comparison__label">{t("imageConverter.after")}</span>
        <span className="size-comparison__value">{formatFileSize(result.new_size, t, language)}</span>
      </div>
      <span className={`size-comparison__change${percent >= 0 ? " size-comparison__change--smaller" : ""}`}>
        {change}
      </span>
    </div>
  );
}
