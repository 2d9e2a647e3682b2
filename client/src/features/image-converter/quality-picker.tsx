import { useTranslation } from "react-i18next";
import { QUALITY_PRESETS, type QualityPreset } from "../../lib/contract";
import { QUALITY_CHOICES } from "./converter-tool";

interface QualityPickerProps {
  value: QualityPreset;
  disabled: boolean;
  showsJpegQuality: boolean;
  onChange: (value: QualityPreset) => void;
}

/** The high / medium / low choice as a radio group. */
export function QualityPicker({ value, disabled, showsJpegQuality, onChange }: QualityPickerProps) {
  const { t } = useTranslation();
  return (
    <fieldset className="segmented" disabled={disabled}>
      <legend className="segmented__legend">{t("imageConverter.quality")}</legend>
      <div className="segmented__options">
        {QUALITY_CHOICES.map((choice) => (
          <label key={choice} className="segmented__option">
            <input
              type="radio"
              name="quality"
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
            />
            <span className="segmented__text">
              <span className="segmented__label">{t(`imageConverter.qualityOption.${choice}`)}</span>
              {showsJpegQuality ? (
                <span className="segmented__hint">
                  {t("imageConverter.qualityHint", { value: QUALITY_PRESETS[choice] })}
                </span>
              ) : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
