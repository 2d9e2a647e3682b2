import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { PATHS } from "../../config/paths";
import { usePageMeta } from "../../lib/use-page-meta";

/**
 * An address no route matches. The Worker answers it with status 404 and this same text in the
 * visitor's language (worker/site-pages.ts); in the app it is shown for any unmatched path.
 */
export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageMeta({
    title: t("pages.notFound.title"),
    description: t("pages.notFound.description"),
    noindex: true,
  });
  return (
    <div className="container page page--narrow not-found">
      <h1 className="page__title">{t("pages.notFound.title")}</h1>
      <p className="page__subtitle">{t("pages.notFound.text")}</p>
      <LocalizedLink to={PATHS.home} className="button button--primary">
        {t("pages.notFound.home")}
      </LocalizedLink>
    </div>
  );
}
