import { useTranslation } from "react-i18next";

const COMPANIES = ["northwind", "bluepeak", "meridian", "lumen", "harbor"] as const;

/** The row of five company names under the hero. */
export function TrustedBy() {
  const { t } = useTranslation();
  return (
    <section className="trusted" aria-labelledby="trusted-title">
      <div className="container">
        <h2 id="trusted-title" className="trusted__title">
          {t("trustedBy.title")}
        </h2>
        <ul className="trusted__list">
          {COMPANIES.map((company) => (
            <li key={company} className="trusted__item">
              {t(`companies.${company}`)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
