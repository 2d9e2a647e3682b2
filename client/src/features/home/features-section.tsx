import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "../../components/icon";
import { HOME_SECTIONS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";
import { contentItems } from "./content-items";

/** The picture of each feature card (each card describes tools the site has). */
const FEATURE_ICONS: Readonly<Record<string, IconName>> = {
  convert: "convert",
  organize: "edit",
  stamp: "pen",
  secure: "lock",
  compress: "compress",
  images: "image",
};

/** The feature cards: the entries of the locale file's `features` group (six of them). */
export function FeaturesSection() {
  const { t } = useTranslation();
  return (
    <section
      id={HOME_SECTIONS.features}
      className="section features"
      aria-labelledby="features-title"
      tabIndex={-1}
    >
      <div className="container">
        <h2 id="features-title" className="section__title">
          {t("features.title")}
        </h2>
        <p className="section__subtitle">{t("features.subtitle")}</p>
        <ul className="card-grid card-grid--three">
          {contentItems(t, "features").map((feature) => (
            <li key={feature} className="card feature-card">
              <span className="feature-card__icon">
                <Icon name={FEATURE_ICONS[feature] ?? "document"} />
              </span>
              <h3 className="card__title">{t(`features.${feature}.title`)}</h3>
              <p className="card__text">
                {t(`features.${feature}.description`, { minutes: DEFAULT_RETENTION_MINUTES })}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
