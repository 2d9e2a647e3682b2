import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { CUSTOM_QUALITY, QUALITY_PRESETS, type QualityPreset } from "../../client/src/lib/contract";
import tool from "./tool.ts";

export type QualityChoice = QualityPreset | "custom";
const CHOICES: readonly QualityChoice[] = ["high", "medium", "low", "custom"];

interface QualityChoiceProps {
  choice: QualityChoice;
  custom: number;
  disabled: boolean;
  onChoice: (choice: QualityChoice) => void;
  onCustom: (value: number) => void;
}

/** The quality number sent for a choice (spec §9: low 60, medium 85, high 95, or the slider's value). */
export function qualityOf(choice: QualityChoice, custom: number): number {
  return choice === "custom" ? custom : QUALITY_PRESETS[choice];
}

/**
 * High / medium / low / custom (spec §2); custom shows a 30–100 slider with its percent, between
 * "more compression" and "better quality".
 */
export function QualityChoiceField({ choice, custom, disabled, onChoice, onCustom }: QualityChoiceProps) {
  const { t } = useTranslation([tool.id, "common"]);
  const sliderId = useId();
  const choices = CHOICES.map((value) => ({
    value,
    label: t(`quality.${value}`),
    hint: value === "custom" ? undefined : t("quality.hint", { value: QUALITY_PRESETS[value] }),
  }));
  return (
    <div className="compress-quality">
      <ChoiceGroup
        legend={t("quality.legend")}
        name="quality"
        choices={choices}
        value={choice}
        disabled={disabled}
        onChange={onChoice}
      >
        {choice === "custom" ? (
          <div className="quality-slider">
            <label className="quality-slider__label" htmlFor={sliderId}>
              {t("quality.customLabel")}{" "}
              <output data-testid="custom-quality">{t("quality.percent", { value: custom })}</output>
            </label>
            <input
              id={sliderId}
              type="range"
              min={CUSTOM_QUALITY.min}
              max={CUSTOM_QUALITY.max}
              step={CUSTOM_QUALITY.step}
              value={custom}
              disabled={disabled}
              onChange={(event) => onCustom(Number(event.target.value))}
            />
            <span className="quality-slider__ends">
              <span>{t("quality.moreCompression")}</span>
              <span>{t("quality.betterQuality")}</span>
            </span>
          </div>
        ) : null}
      </ChoiceGroup>
    </div>
  );
}
