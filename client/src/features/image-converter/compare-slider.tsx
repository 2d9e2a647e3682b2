import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

interface CompareSliderProps {
  /** Address of the original image. */
  before: string;
  /** Address of the result. */
  after: string;
  name: string;
}

/**
 * Before and after, one over the other at the same scale in the same frame (Squoosh style): the
 * result shows right of the divider, the original left of it. The divider is a range input, so
 * arrow keys, Page Up/Down, Home and End move it.
 */
export function CompareSlider({ before, after, name }: CompareSliderProps) {
  const { t } = useTranslation();
  const [position, setPosition] = useState(50);
  const labelId = useId();
  return (
    <figure className="compare" data-testid="compare-slider">
      <div className="compare__frame">
        <img className="compare__image" src={before} alt={t("imageBatch.beforeImage", { name })} />
        <img
          className="compare__image"
          src={after}
          alt={t("imageBatch.afterImage", { name })}
          style={{ clipPath: `inset(0 0 0 ${position}%)` }}
        />
        <span className="compare__divider" style={{ left: `${position}%` }} aria-hidden="true" />
        <input
          className="compare__range"
          type="range"
          min={0}
          max={100}
          step={1}
          value={position}
          aria-labelledby={labelId}
          aria-valuetext={t("imageBatch.compareValue", { before: position, after: 100 - position })}
          onChange={(event) => setPosition(Number(event.target.value))}
        />
      </div>
      <figcaption className="compare__caption">
        <span>{t("imageConverter.before")}</span>
        <span id={labelId}>{t("imageBatch.compareLabel")}</span>
        <span>{t("imageConverter.after")}</span>
      </figcaption>
    </figure>
  );
}
