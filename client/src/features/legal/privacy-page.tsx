import { useTranslation } from "react-i18next";
import { LegalPage, useLegalValues } from "./legal-page";

const SECTIONS = [
  "uploads",
  "processing",
  "retention",
  "cookies",
  "thirdParties",
  "logs",
  "contactForm",
] as const;

export default function PrivacyPage() {
  const { t } = useTranslation();
  const values = useLegalValues();
  return (
    <LegalPage
      title={t("pages.privacy.title")}
      description={t("pages.privacy.description")}
      intro={t("pages.privacy.intro", values)}
      sections={SECTIONS.map((id) => ({
        id,
        title: t(`pages.privacy.${id}.title`),
        body: t(`pages.privacy.${id}.body`, values),
      }))}
    />
  );
}
