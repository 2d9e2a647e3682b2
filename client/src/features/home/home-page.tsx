import { useTranslation } from "react-i18next";
import popular from "../../../../content/home/popular-tools.json";
import { LocalizedLink } from "../../components/localized-link";
import { PATHS } from "../../config/paths";
import { isCatalogToolId, TOOL_CATALOG } from "../../lib/tool-catalog";
import { usePageMeta } from "../../lib/use-page-meta";
import { ToolCardList } from "../tools-index/tool-card-grid";
import { BuiltOn } from "./built-on";
import { FeaturesSection } from "./features-section";
import { Hero } from "./hero";
import { Promises } from "./promises";
import "../tools-index/tools-index.css";
import "./home.css";

/** The most used tools, as listed in content/home/popular-tools.json (an operator may change it). */
const POPULAR_TOOLS = popular.tools.flatMap((id) =>
  isCatalogToolId(id) ? TOOL_CATALOG.filter((tool) => tool.id === id) : [],
);

function PopularTools() {
  const { t } = useTranslation();
  return (
    <section className="section popular-tools" aria-labelledby="popular-tools-title">
      <div className="container">
        <h2 id="popular-tools-title" className="section__title">
          {t("pages.home.popular.title")}
        </h2>
        <p className="section__subtitle">{t("pages.home.popular.subtitle")}</p>
        <ToolCardList tools={POPULAR_TOOLS} testId="popular-tools" />
        <p className="popular-tools__more">
          <LocalizedLink to={PATHS.tools} className="button button--outline">
            {t("pages.home.popular.allTools")}
          </LocalizedLink>
        </p>
      </div>
    </section>
  );
}

export default function HomePage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.home.title"), description: t("pages.home.description") });
  return (
    <>
      <Hero />
      <PopularTools />
      <BuiltOn />
      <FeaturesSection />
      <Promises />
    </>
  );
}
