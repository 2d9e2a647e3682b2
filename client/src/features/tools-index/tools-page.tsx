import { useTranslation } from "react-i18next";
import { PATHS } from "../../config/paths";
import { usePageMeta } from "../../lib/use-page-meta";
import { ToolCard } from "./tool-card";
import { ToolCardGrid } from "./tool-card-grid";
import "./tools-index.css";

/** PDF tools in declared order, then the Other Tools grid with the Image Tools card. */
export default function ToolsPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.tools.title"), description: t("pages.tools.description") });
  return (
    <div className="container page">
      <header className="page__header">
        <h1 className="page__title">{t("pages.tools.heading")}</h1>
        <p className="page__subtitle">{t("pages.tools.subtitle")}</p>
      </header>
      <section aria-labelledby="pdf-tools-title" className="tools-section">
        <h2 id="pdf-tools-title" className="tools-section__title">
          {t("pages.tools.pdfTools")}
        </h2>
        <ToolCardGrid category="pdf" testId="pdf-tools" />
      </section>
      <section aria-labelledby="other-tools-title" className="tools-section">
        <h2 id="other-tools-title" className="tools-section__title">
          {t("pages.tools.otherTools")}
        </h2>
        <ul className="card-grid card-grid--tools">
          <ToolCard
            to={PATHS.imageTools}
            name={t("pages.tools.imageToolsCard.name")}
            description={t("pages.tools.imageToolsCard.description")}
            icon="image"
          />
        </ul>
      </section>
    </div>
  );
}
