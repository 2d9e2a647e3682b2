import { type ComponentType, lazy } from "react";
import { Navigate, useParams } from "react-router";
import { isImageConverter } from "../features/image-converter/converter-tool";
import { isToolId, type ToolId } from "../lib/contract";

type ToolScreen = ComponentType<{ toolId: ToolId }>;

const MergePdfPage = lazy(() => import("../features/merge-pdf/merge-pdf-page"));
const ImageConverterPage = lazy(() => import("../features/image-converter/image-converter-page"));
const UnavailableToolPage = lazy(() => import("../features/tool-page/unavailable-tool-page"));

/** The screen of each tool: built screens by id or kind, every other tool the "not available" page. */
function screenFor(id: ToolId): ToolScreen {
  if (id === "merge-pdf") return MergePdfPage;
  if (isImageConverter(id)) return ImageConverterPage;
  return UnavailableToolPage;
}

/** /tools/:toolId — an unknown id redirects to the home page, replacing the history entry. */
export function ToolRoute() {
  const { toolId = "" } = useParams();
  if (!isToolId(toolId)) return <Navigate to="/" replace />;
  const Screen = screenFor(toolId);
  return <Screen key={toolId} toolId={toolId} />;
}
