import { useTranslation } from "react-i18next";
import { contentItems } from "./content-items";

/** The row of company names under the hero (the `companies` group of the locale file). */
export function TrustedBy() {
  const { t } = useTranslation();
  return (
    <section className="trusted" aria-labelledby="trusted-title">
      <div className="container">
        <h2 id="trusted-title" className="trusted__title">
          {t("trustedBy.title")}
        </h2>
        <ul className="trusted__list">
          {contentItems(t, "companies").map((company) => (
            <li key={company} className="trusted__item">
              {t(`companies.${company}`)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
