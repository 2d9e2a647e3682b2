import { useTranslation } from "react-i18next";
import { LegalPage, useLegalValues } from "./legal-page";
import { LEGAL_UPDATED, TERMS_SECTIONS } from "./legal-sections";

export default function TermsPage() {
  const { t } = useTranslation();
  const values = useLegalValues();
  return (
    <LegalPage
      updated={LEGAL_UPDATED.terms}
      title={t("pages.terms.title")}
      description={t("pages.terms.description")}
      intro={t("pages.terms.intro", values)}
      sections={TERMS_SECTIONS.map((id) => ({
        id,
        title: t(`pages.terms.${id}.title`),
        body: t(`pages.terms.${id}.body`, values),
      }))}
    />
  );
}
