import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "../../components/icon";
import { HOME_SECTIONS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";

/** The six feature cards (spec §2: convert, edit, OCR, secure, compress, share). */
const FEATURES: ReadonlyArray<{
  id: "convert" | "edit" | "ocr" | "secure" | "compress" | "share";
  icon: IconName;
}> = [
  { id: "convert", icon: "convert" },
  { id: "edit", icon: "edit" },
  { id: "ocr", icon: "ocr" },
  { id: "secure", icon: "lock" },
  { id: "compress", icon: "compress" },
  { id: "share", icon: "share" },
];

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
          {FEATURES.map((feature) => (
            <li key={feature.id} className="card feature-card">
              <span className="feature-card__icon">
                <Icon name={feature.icon} />
              </span>
              <h3 className="card__title">{t(`features.${feature.id}.title`)}</h3>
              <p className="card__text">
                {t(`features.${feature.id}.description`, { minutes: DEFAULT_RETENTION_MINUTES })}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
