import { useTranslation } from "react-i18next";
import { toolPath } from "../../config/paths";
import { TOOL_IDS, TOOLS } from "../../lib/contract";
import { usePageMeta } from "../../lib/use-page-meta";
import { ToolCard } from "./tool-card";
import { TOOL_ICONS } from "./tool-icons";
import "./tools-index.css";

/** The image tools, in declared order. */
export default function ImageToolsPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.imageTools.title"), description: t("pages.imageTools.description") });
  const imageTools = TOOL_IDS.filter((id) => TOOLS[id].category === "image");
  return (
    <div className="container page">
      <header className="page__header">
        <h1 className="page__title">{t("pages.imageTools.title")}</h1>
        <p className="page__subtitle">{t("pages.imageTools.description")}</p>
      </header>
      <ul className="card-grid card-grid--tools" data-testid="image-tools">
        {imageTools.map((id) => (
          <ToolCard
            key={id}
            to={toolPath(id)}
            name={t(`tools.${id}.name`)}
            description={t(`tools.${id}.description`)}
            icon={TOOL_ICONS[id]}
            disabled={TOOLS[id].comingSoon}
            premium={TOOLS[id].premium}
          />
        ))}
      </ul>
    </div>
  );
}
