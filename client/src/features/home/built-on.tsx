import { useTranslation } from "react-i18next";
import { contentItems } from "./content-items";

/** The open-source projects the site is built on (the `projects` group of the locale file). */
export function BuiltOn() {
  const { t } = useTranslation();
  return (
    <section className="trusted" aria-labelledby="built-on-title">
      <div className="container">
        <h2 id="built-on-title" className="trusted__title">
          {t("builtOn.title")}
        </h2>
        <ul className="trusted__list">
          {contentItems(t, "projects").map((project) => (
            <li key={project} className="trusted__item">
              {t(`projects.${project}`)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
