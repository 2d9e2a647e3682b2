import { useTranslation } from "react-i18next";
import { THEME_STORAGE_KEY } from "../../components/theme/theme";
import { CSRF_COOKIE } from "../../lib/contract";
import { FREE_CONVERSIONS_KEY } from "../../lib/free-conversions/free-conversions";
import { LegalPage, type LegalSection, useLegalValues } from "./legal-page";
import { LEGAL_UPDATED, PRIVACY_SECTIONS } from "./legal-sections";

/**
 * Every cookie and browser storage entry the site writes (a Chromium test checks the list against
 * what a visit really leaves): the language cookie is lib/i18n/language-cookie.ts's,
 * the theme is the header toggle's (components/theme), the reload mark is app/preload-error.ts's.
 */
const COOKIES = [
  { id: "csrf", name: CSRF_COOKIE },
  { id: "language", name: "i18next" },
] as const;
const STORAGE = [
  { id: "freeConversions", name: FREE_CONVERSIONS_KEY },
  { id: "theme", name: THEME_STORAGE_KEY },
  { id: "reload", name: "preload-error-reload-at" },
] as const;

export default function PrivacyPage() {
  const { t } = useTranslation();
  const values = { ...useLegalValues(), notice: t("freeToolAccess.title") };
  const items: Partial<Record<(typeof PRIVACY_SECTIONS)[number], LegalSection["items"]>> = {
    cookies: COOKIES.map((cookie) => ({
      name: cookie.name,
      text: t(`pages.privacy.cookies.items.${cookie.id}`),
    })),
    storage: STORAGE.map((entry) => ({
      name: entry.name,
      text: t(`pages.privacy.storage.items.${entry.id}`, values),
    })),
  };
  return (
    <LegalPage
      updated={LEGAL_UPDATED.privacy}
      title={t("pages.privacy.title")}
      description={t("pages.privacy.description")}
      intro={t("pages.privacy.intro", values)}
      sections={PRIVACY_SECTIONS.map((id) => ({
        id,
        title: t(`pages.privacy.${id}.title`),
        body: t(`pages.privacy.${id}.body`, values),
        items: items[id],
      }))}
    />
  );
}
