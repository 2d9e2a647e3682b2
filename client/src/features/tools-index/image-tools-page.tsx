import { useTranslation } from "react-i18next";
import { usePageMeta } from "../../lib/use-page-meta";
import { ToolCardGrid } from "./tool-card-grid";
import "./tools-index.css";

/** The image tools, in declared order. */
export default function ImageToolsPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.imageTools.title"), description: t("pages.imageTools.description") });
  return (
    <div className="container page">
      <header className="page__header">
        <h1 className="page__title">{t("pages.imageTools.title")}</h1>
        <p className="page__subtitle">{t("pages.imageTools.description")}</p>
      </header>
      <ToolCardGrid category="image" testId="image-tools" />
    </div>
  );
}
