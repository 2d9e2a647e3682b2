import { useTranslation } from "react-i18next";
import { usePageMeta } from "../../lib/use-page-meta";
import { FeaturesSection } from "./features-section";
import { Hero } from "./hero";
import { Testimonials } from "./testimonials";
import { TrustedBy } from "./trusted-by";
import "./home.css";

export default function HomePage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.home.title"), description: t("pages.home.description") });
  return (
    <>
      <Hero />
      <TrustedBy />
      <FeaturesSection />
      <Testimonials />
    </>
  );
}
