import type { ToolId } from "../../../contract/tools.ts";
import { TOOL_CATALOG } from "../generated/tool-catalog";

/**
 * The tools as cards, routes and prerendered pages see them (scripts/tool-registry.ts writes the
 * catalog from the declarations): no zod and no tool code, so the shell stays small.
 */
export type CatalogTool = (typeof TOOL_CATALOG)[number];
/** How a tool card looks: usable, announced, or declared but not built yet. */
export type ToolState = "available" | "coming-soon" | "not-built";
export type ToolCategory = CatalogTool["category"];

export { TOOL_CATALOG };

const BY_ID = new Map<string, CatalogTool>(TOOL_CATALOG.map((tool) => [tool.id, tool]));

export function isCatalogToolId(value: string): value is ToolId {
  return BY_ID.has(value);
}

export function catalogTool(id: ToolId): CatalogTool {
  const tool = BY_ID.get(id);
  if (!tool) throw new Error(`No tool ${id} in the catalog`);
  return tool;
}

/** The tools of one category in the tools index order. */
export function toolsOf(category: ToolCategory): readonly CatalogTool[] {
  return TOOL_CATALOG.filter((tool) => tool.category === category);
}
