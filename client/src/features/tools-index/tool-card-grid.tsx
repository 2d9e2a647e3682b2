import { useTranslation } from "react-i18next";
import { toolPath } from "../../config/paths";
import { TOOL_IDS, TOOLS } from "../../lib/contract";
import { ToolCard } from "./tool-card";
import { TOOL_ICONS } from "./tool-icons";

type Category = (typeof TOOLS)[keyof typeof TOOLS]["category"];

/** The cards of one tool category, in declared order; coming-soon tools dimmed but still links. */
export function ToolCardGrid({ category, testId }: { category: Category; testId: string }) {
  const { t } = useTranslation();
  return (
    <ul className="card-grid card-grid--tools" data-testid={testId}>
      {TOOL_IDS.filter((id) => TOOLS[id].category === category).map((id) => (
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
  );
}
