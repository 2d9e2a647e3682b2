import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { PATHS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";
import { usePageMeta } from "../../lib/use-page-meta";

/** Both legal texts were last updated on this date (spec §2). */
const LAST_UPDATED = new Date(Date.UTC(2023, 7, 15));

interface LegalPageProps {
  title: string;
  description: string;
  intro: string;
  sections: ReadonlyArray<{ id: string; title: string; body: string }>;
}

/** A static legal text: title, last-updated date, sections, and a link to the contact page. */
export function LegalPage({ title, description, intro, sections }: LegalPageProps) {
  const { t, i18n } = useTranslation();
  usePageMeta({ title, description });
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long", timeZone: "UTC" }).format(
    LAST_UPDATED,
  );
  return (
    <div className="container page page--narrow">
      <header className="page__header">
        <h1 className="page__title">{title}</h1>
        <p className="page__meta">
          <time dateTime="2023-08-15">{t("pages.legal.lastUpdated", { date })}</time>
        </p>
      </header>
      <div className="prose">
        <p>{intro}</p>
        {sections.map((section) => (
          <section key={section.id} aria-labelledby={`legal-${section.id}`}>
            <h2 id={`legal-${section.id}`}>{section.title}</h2>
            <p>{section.body}</p>
          </section>
        ))}
        <p className="page__cta">
          {t("pages.legal.contactPrompt")}{" "}
          <LocalizedLink to={PATHS.contact}>{t("pages.legal.contactLink")}</LocalizedLink>
        </p>
      </div>
    </div>
  );
}

/** Interpolation values the legal texts use. */
export function useLegalValues() {
  const { t } = useTranslation();
  return { name: t("app.name"), minutes: DEFAULT_RETENTION_MINUTES };
}
