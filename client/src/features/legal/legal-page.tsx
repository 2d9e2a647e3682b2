import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { PATHS } from "../../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../../lib/contract";
import { usePageMeta } from "../../lib/use-page-meta";

export interface LegalSection {
  id: string;
  title: string;
  body: string;
  /** Named entries (cookies, storage keys): the name as code, then what it is for. */
  items?: ReadonlyArray<{ name: string; text: string }>;
}

interface LegalPageProps {
  title: string;
  description: string;
  intro: string;
  sections: readonly LegalSection[];
  /** The day the text last changed, YYYY-MM-DD (legal-sections.ts `LEGAL_UPDATED`). */
  updated: string;
}

/** A static legal text: title, last-updated date, sections, and a link to the contact page. */
export function LegalPage({ title, description, intro, sections, updated }: LegalPageProps) {
  const { t, i18n } = useTranslation();
  usePageMeta({ title, description });
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${updated}T00:00:00Z`),
  );
  return (
    <div className="container page page--narrow">
      <header className="page__header">
        <h1 className="page__title">{title}</h1>
        <p className="page__meta">
          <time dateTime={updated} data-testid="last-updated">
            {t("pages.legal.lastUpdated", { date })}
          </time>
        </p>
      </header>
      <div className="prose">
        <p>{intro}</p>
        {sections.map((section) => (
          <section key={section.id} aria-labelledby={`legal-${section.id}`}>
            <h2 id={`legal-${section.id}`}>{section.title}</h2>
            <p>{section.body}</p>
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item.name}>
                    <code>{item.name}</code>: {item.text}
                  </li>
                ))}
              </ul>
            ) : null}
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

/**
 * Interpolation values the legal and about texts use: the retention from the contract and the
 * label of the result's delete button, so the text always names what the site really does.
 */
export function useLegalValues() {
  const { t } = useTranslation();
  return { name: t("app.name"), minutes: DEFAULT_RETENTION_MINUTES, deleteNow: t("result.deleteNow") };
}
