import { useTranslation } from "react-i18next";
import type { ToolId } from "../../../../contract/tools.ts";
import { toolPath } from "../../config/paths";
import { TOOL_CARDS_NAMESPACE } from "../../lib/i18n/locale-files";
import { type CatalogTool, type ToolCategory, toolsOf } from "../../lib/tool-catalog";
import { ToolCard } from "./tool-card";

/** Cards for the given tools, in the given order; each card's state comes from its declaration. */
export function ToolCardList({ tools, testId }: { tools: readonly CatalogTool[]; testId: string }) {
  // Every tool's name and description, in one file per language (scripts/tool-registry.ts).
  const { t } = useTranslation(TOOL_CARDS_NAMESPACE);
  return (
    <ul className="card-grid card-grid--tools" data-testid={testId}>
      {tools.map((tool) => (
        <ToolCard
          key={tool.id}
          to={toolPath(tool.id as ToolId)}
          name={t(`${tool.id as ToolId}.name`)}
          description={t(`${tool.id as ToolId}.description`)}
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
