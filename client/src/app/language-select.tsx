import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "../components/icon";
import { isLanguageCode, LANGUAGES } from "../lib/contract";
import { currentLanguage } from "../lib/i18n/i18n";
import { untilHydrated } from "../lib/use-hydrated";
import { useChangeLanguage } from "./use-change-language";

/**
 * The header's language selector (a native select: keyboard and screen-reader friendly).
 * The prerendered page holds only the current language: to size a closed select the browser shapes
 * every option, and the names in Devanagari, Telugu and Tamil sent it looking for fonts, ~30 % of the
 * home page's first layout (median 33 → 25 ms in Chromium). The other languages are added once the
 * app runs, before which a change could not be handled anyway; the CSS gives the select its full
 * width from the start.
 */
export function LanguageSelect() {
  const { t } = useTranslation();
  const id = useId();
  const changeLanguage = useChangeLanguage();
  const current = currentLanguage();
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  const shown = running ? LANGUAGES : LANGUAGES.filter((language) => language.code === current);
  return (
    <div className="language-select">
      <label htmlFor={id} className="visually-hidden">
        {t("nav.language")}
      </label>
      <Icon name="globe" className="icon language-select__icon" />
      <select
        id={id}
        value={current}
        onChange={(event) => {
          if (isLanguageCode(event.target.value)) changeLanguage(event.target.value);
        }}
        data-testid="language-select"
        {...untilHydrated(running)}
      >
        {shown.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The mobile panel's grid of languages; picking one also closes the panel. */
export function LanguageGrid({ onPick }: { onPick: () => void }) {
  const { t } = useTranslation();
  const changeLanguage = useChangeLanguage();
  const current = currentLanguage();
  return (
    <fieldset className="language-grid">
      <legend className="language-grid__label">{t("nav.language")}</legend>
      <div className="language-grid__options">
        {LANGUAGES.map((language) => (
          <button
            key={language.code}
            type="button"
            lang={language.code}
            className="language-grid__button"
            aria-pressed={language.code === current}
            onClick={() => {
              changeLanguage(language.code);
              onPick();
            }}
          >
            {language.name}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
