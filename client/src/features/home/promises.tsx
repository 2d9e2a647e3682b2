import { useTranslation } from "react-i18next";
import { HOME_SECTIONS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";
import { contentItems } from "./content-items";

/**
 * What the site promises and can show to be true (the locale file's `promises` group): privacy,
 * no account, the languages and scripts, the licence. No invented people or quotes.
 */
export function Promises() {
  const { t } = useTranslation();
  return (
    <section
      id={HOME_SECTIONS.promises}
      className="section promises"
      aria-labelledby="promises-title"
      tabIndex={-1}
    >
      <div className="container">
        <h2 id="promises-title" className="section__title">
          {t("promises.title")}
        </h2>
        <p className="section__subtitle">{t("promises.subtitle")}</p>
        <ul className="card-grid card-grid--four">
          {contentItems(t, "promises").map((promise) => (
            <li key={promise} className="card promise" data-testid="promise">
              <h3 className="card__title">{t(`promises.${promise}.title`)}</h3>
              <p className="card__text">
                {t(`promises.${promise}.text`, { minutes: DEFAULT_RETENTION_MINUTES })}
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
