/**
 * The registry of tools, derived from the folders in tools/: each folder's `tool.ts` declares one
 * tool (see tool-kit.ts); contract/generated/tool-declarations.ts, written by
 * scripts/tool-registry.ts, imports them all. Nothing here names a tool.
 */
import type { z } from "zod";
import { TOOL_DECLARATIONS } from "./generated/tool-declarations.ts";
import type { ToolCategory, ToolDeclaration } from "./tool-kit.ts";

type Declaration = (typeof TOOL_DECLARATIONS)[number];
export type ToolId = Declaration["id"];
type Tools = {
  readonly [K in ToolId]: Extract<Declaration, { id: K }> & {
    /** Which status endpoint (`/api/{taskType}/status`) serves its tasks: its category. */
    readonly taskType: Extract<Declaration, { id: K }>["category"];
  };
};

const CATEGORY_ORDER: readonly ToolCategory[] = ["pdf", "image"];

/** Every tool, by category (PDF first) and then by its declared order: the tools index order. */
const ordered = [...TOOL_DECLARATIONS].sort(
  (a, b) => CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category) || a.order - b.order,
);

export const TOOLS = Object.fromEntries(
  ordered.map((tool) => [tool.id, { ...tool, taskType: tool.category }]),
) as unknown as Tools;
export const TOOL_IDS = ordered.map((tool) => tool.id) as ToolId[];

/*
 * The id sets below pick declarations out of the union with Extract: a mapped type over every id
 * (`Tools[K]` for each K) made TypeScript give up ("union type too complex") at 17 tools.
 */
/** Tools whose jobs the API accepts. */
export type AvailableToolId = Extract<Declaration, { readonly available: true }>["id"];
/** Available tools that run at the edge (within their budget). */
export type EdgeToolId = Extract<
  Declaration,
  { readonly available: true; readonly engine: { readonly kind: "edge" } }
>["id"];
/** Available tools the container must handle: container tools, and edge tools over budget. */
export type ContainerToolId = AvailableToolId;

/** Distributes over the declarations, so the options of a union of tools stay a union of their outputs. */
type OptionsOf<D> = D extends { readonly options: infer O extends z.ZodType } ? z.output<O> : never;
export type ToolOptions<T extends ToolId> = OptionsOf<Extract<Declaration, { readonly id: T }>>;

/** A tool's declaration under its general type (its optional fields readable whatever the tool). */
export function declarationOf(id: ToolId): ToolDeclaration {
  return TOOLS[id];
}

export function isToolId(value: string): value is ToolId {
  return Object.hasOwn(TOOLS, value);
}

/**
 * Parses a tool's options with its schema (defaults applied, ranges checked): the form fields of
 * a request in the Worker, or the typed options the Worker sent, at the converter's entry.
 */
export function parseToolOptions<T extends ToolId>(
  id: T,
  value: unknown,
): { success: true; data: ToolOptions<T> } | { success: false; issues: string } {
  const result = TOOLS[id].options.safeParse(value);
  if (result.success) return { success: true, data: result.data as ToolOptions<T> };
  return {
    success: false,
    issues: result.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; "),
  };
}
