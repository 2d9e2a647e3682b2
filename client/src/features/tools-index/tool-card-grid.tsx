import { useTranslation } from "react-i18next";
import type { ToolId } from "../../../../contract/tools.ts";
import { toolPath } from "../../config/paths";
import { type CatalogTool, type ToolCategory, toolsOf } from "../../lib/tool-catalog";
import { ToolCard } from "./tool-card";

/** Cards for the given tools, in the given order; each card's state comes from its declaration. */
export function ToolCardList({ tools, testId }: { tools: readonly CatalogTool[]; testId: string }) {
  // Names and descriptions live in each tool's own namespace.
  const ids = tools.map((tool) => tool.id as ToolId);
  const { t } = useTranslation(ids);
  return (
    <ul className="card-grid card-grid--tools" data-testid={testId}>
      {tools.map((tool) => (
        <ToolCard
          key={tool.id}
          to={toolPath(tool.id as ToolId)}
          name={t("name", { ns: tool.id as ToolId })}
          description={t("description", { ns: tool.id as ToolId })}
          icon={tool.icon}
          state={tool.state}
          premium={tool.premium}
        />
      ))}
    </ul>
  );
}

/** The cards of one tool category, in declared order. */
export function ToolCardGrid({ category, testId }: { category: ToolCategory; testId: string }) {
  return <ToolCardList tools={toolsOf(category)} testId={testId} />;
}
