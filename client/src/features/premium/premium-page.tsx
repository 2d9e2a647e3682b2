import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { FREE_CONVERSIONS_PER_DAY } from "../../config/free-conversions";
import { PATHS } from "../../config/paths";
import { usePageMeta } from "../../lib/use-page-meta";
import { ACCESS_COUNTDOWN_SECONDS } from "./access-clock";
import { PremiumBenefits } from "./premium-benefits";
import "./premium.css";

/** The contact form with the billing topic chosen (the contact page reads `topic`). */
export const PREMIUM_CONTACT_PATH = `${PATHS.contact}?topic=billing`;

/** /premium: the tier (spec §1) and how to get it — through the contact form, topic billing. */
export default function PremiumPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.premium.title"), description: t("pages.premium.description") });
  return (
    <div className="container page">
      <header className="page__header">
        <h1 className="page__title">{t("pages.premium.heading")}</h1>
        <p className="page__subtitle">{t("pages.premium.subtitle")}</p>
      </header>
      <PremiumBenefits variant="cards" />
      <section className="card premium-get" aria-labelledby="premium-get-title">
        <h2 id="premium-get-title" className="card__title">
          {t("pages.premium.getTitle")}
        </h2>
        <p className="card__text">{t("pages.premium.getBody")}</p>
        <LocalizedLink
          to={PREMIUM_CONTACT_PATH}
          className="button button--primary button--large"
          data-testid="premium-contact"
        >
          {t("pages.premium.getButton")}
        </LocalizedLink>
      </section>
      <p className="premium-free" data-testid="premium-free">
        {FREE_CONVERSIONS_PER_DAY > 0
          ? t("pages.premium.freeLimited", {
              count: FREE_CONVERSIONS_PER_DAY,
              seconds: ACCESS_COUNTDOWN_SECONDS,
            })
          : t("pages.premium.freeUnlimited")}
      </p>
    </div>
  );
}
