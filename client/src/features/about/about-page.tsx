import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { PATHS } from "../../config/paths";
import { usePageMeta } from "../../lib/use-page-meta";
import { useLegalValues } from "../legal/legal-page";

const SECTIONS = ["mission", "privacy", "languages", "openSource"] as const;

export default function AboutPage() {
  const { t } = useTranslation();
  const values = useLegalValues();
  const { name } = values;
  usePageMeta({ title: t("pages.about.title"), description: t("pages.about.description") });
  return (
    <div className="container page page--narrow">
      <header className="page__header">
        <h1 className="page__title">{t("pages.about.heading", { name })}</h1>
        <p className="page__subtitle">{t("pages.about.intro", { name })}</p>
      </header>
      <div className="prose">
        {SECTIONS.map((section) => (
          <section key={section} aria-labelledby={`about-${section}`}>
            <h2 id={`about-${section}`}>{t(`pages.about.${section}.title`)}</h2>
            <p>{t(`pages.about.${section}.body`, values)}</p>
          </section>
        ))}
        <p className="page__cta">
          {t("pages.about.contact")}{" "}
          <LocalizedLink to={PATHS.contact}>{t("pages.about.contactLink")}</LocalizedLink>
        </p>
      </div>
    </div>
  );
}
