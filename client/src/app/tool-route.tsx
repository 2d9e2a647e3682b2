import type { ComponentType } from "react";
import { Navigate, type Params, useParams } from "react-router";
import type { ToolId } from "../../../contract/tools.ts";
import { FreeToolAccessHost } from "../features/premium/free-tool-access-dialog";
import { catalogTool, isCatalogToolId } from "../lib/tool-catalog";
import { lazyPage } from "./page-ready";

type ToolScreen = ComponentType<{ toolId: ToolId }>;

/** Each tool folder's `screen.tsx`, loaded on demand (its own chunk, with its strings). */
const screenModules = import.meta.glob<{ default: ToolScreen }>("../../../tools/*/screen.tsx");
const SCREENS = new Map(
  Object.entries(screenModules).map(([path, load]) => [path.split("/").at(-2) ?? "", lazyPage(load)]),
);
const UnavailableToolPage = lazyPage(() => import("../features/tool-page/unavailable-tool-page"));

/** The page shown at /tools/:toolId: the tool's own screen when it is available. */
function screenOf(toolId: ToolId) {
  const available = catalogTool(toolId).state === "available";
  return (available ? SCREENS.get(toolId) : undefined) ?? UnavailableToolPage;
}

/**
 * /tools/:toolId — a usable tool's screen; an announced or unbuilt one shows its page saying so
 * (never a dead end). An unknown id redirects to the home page, replacing the history entry. Every
 * tool start passes the Free Tool Access gate, whose notice is mounted here once for all tools.
 */
export function ToolRoute() {
  const { toolId = "" } = useParams();
  if (!isCatalogToolId(toolId)) return <Navigate to="/" replace />;
  const Screen = screenOf(toolId);
  return (
    <>
      <Screen key={toolId} toolId={toolId} />
      <FreeToolAccessHost />
    </>
  );
}

/** Loads the screen of /tools/:toolId ahead of rendering it (app/router.tsx, preloadRoute). */
ToolRoute.preload = async (params: Params) => {
  const toolId = params.toolId ?? "";
  if (isCatalogToolId(toolId)) await screenOf(toolId).preload();
};
