import { useTranslation } from "react-i18next";
import { ChoiceGroup } from "../../components/tool/choice-group";
import { QUALITY_PRESETS, type QualityPreset } from "../../lib/contract";
import { QUALITY_CHOICES } from "./converter-tool";

interface QualityPickerProps {
  value: QualityPreset;
  disabled: boolean;
  onChange: (value: QualityPreset) => void;
}

/** The high / medium / low choice of a JPEG's quality, as a radio group. */
export function QualityPicker({ value, disabled, onChange }: QualityPickerProps) {
  const { t } = useTranslation();
  const choices = QUALITY_CHOICES.map((choice) => ({
    value: choice,
    label: t(`imageConverter.qualityOption.${choice}`),
    hint: t("imageConverter.qualityHint", { value: QUALITY_PRESETS[choice] }),
  }));
  return (
    <ChoiceGroup
      legend={t("imageConverter.quality")}
      name="quality"
      choices={choices}
      value={value}
      disabled={disabled}
      onChange={onChange}
    />
  );
}
