import { useTranslation } from "react-i18next";
import { PageRangesInput } from "../../client/src/components/pdf/page-ranges-input";
import type { PageRangeError } from "../../client/src/lib/contract";
import tool from "./tool.ts";

/**
 * The optional page ranges of convert-pages mode, checked as the user types (spec §5): the spec's
 * message shows under the field while the text does not fit the document.
 */
export function PageRangeField({
  value,
  error,
  disabled,
  onChange,
}: {
  value: string;
  error: PageRangeError | null;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation([tool.id, "common"]);
  return (
    <PageRangesInput
      label={
        <>
          {t("pageRanges")} <span className="field__required">{t("optional")}</span>
        </>
      }
      hint={t("pageRangesHint")}
      placeholder={t("pageRangesPlaceholder")}
      value={value}
      error={error}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
