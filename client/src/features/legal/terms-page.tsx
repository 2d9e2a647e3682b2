import { useTranslation } from "react-i18next";
import { LegalPage, useLegalValues } from "./legal-page";

const SECTIONS = [
  "service",
  "yourFiles",
  "acceptableUse",
  "availability",
  "liability",
  "premium",
  "openSource",
  "changes",
] as const;

export default function TermsPage() {
  const { t } = useTranslation();
  const values = useLegalValues();
  return (
    <LegalPage
      title={t("pages.terms.title")}
      description={t("pages.terms.description")}
      intro={t("pages.terms.intro", values)}
      sections={SECTIONS.map((id) => ({
        id,
        title: t(`pages.terms.${id}.title`),
        body: t(`pages.terms.${id}.body`, values),
      }))}
    />
  );
}
