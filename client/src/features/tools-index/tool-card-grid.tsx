import { useTranslation } from "react-i18next";
import { toolPath } from "../../config/paths";
import { TOOL_IDS, TOOLS } from "../../lib/contract";
import { ToolCard } from "./tool-card";

type Category = (typeof TOOLS)[keyof typeof TOOLS]["category"];

/** The cards of one tool category, in declared order; coming-soon tools dimmed but still links. */
export function ToolCardGrid({ category, testId }: { category: Category; testId: string }) {
  const ids = TOOL_IDS.filter((id) => TOOLS[id].category === category);
  // Names and descriptions live in each tool's own namespace.
  const { t } = useTranslation(ids);
  return (
    <ul className="card-grid card-grid--tools" data-testid={testId}>
      {ids.map((id) => (
        <ToolCard
          key={id}
          to={toolPath(id)}
          name={t("name", { ns: id })}
          description={t("description", { ns: id })}
          icon={TOOLS[id].icon}
          disabled={TOOLS[id].comingSoon}
          premium={TOOLS[id].premium}
        />
      ))}
    </ul>
  );
}
