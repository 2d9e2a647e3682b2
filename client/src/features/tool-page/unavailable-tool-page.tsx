import { ToolShell } from "../../components/tool/tool-shell";
import type { ToolId } from "../../lib/contract";

/** A declared tool without a working screen yet: its title, description and the notice. */
export default function UnavailableToolPage({ toolId }: { toolId: ToolId }) {
  return <ToolShell toolId={toolId} />;
}
