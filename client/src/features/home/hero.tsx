import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { HOME_SECTIONS, PATHS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";
import { untilHydrated, useHydrated } from "../../lib/use-hydrated";

function scrollToFeatures() {
  const section = document.getElementById(HOME_SECTIONS.features);
  if (!section) return;
  section.scrollIntoView({ behavior: "smooth", block: "start" });
  section.focus({ preventScroll: true });
}

/** Tagline, title, subtitle and the two calls to action. */
export function Hero() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero__inner">
        <p className="hero__tagline">{t("hero.tagline")}</p>
        <h1 id="hero-title" className="hero__title">
          {t("hero.title")}
        </h1>
        <p className="hero__subtitle">{t("hero.subtitle", { minutes: DEFAULT_RETENTION_MINUTES })}</p>
        <div className="hero__actions">
          <LocalizedLink to={PATHS.tools} className="button button--primary button--large">
            {t("hero.tryFree")}
          </LocalizedLink>
          <button
            type="button"
            className="button button--large button--outline"
            onClick={scrollToFeatures}
            {...untilHydrated(hydrated)}
          >
            {t("hero.exploreFeatures")}
          </button>
        </div>
      </div>
    </section>
  );
}
