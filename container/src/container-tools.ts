import { type ContainerToolId, isToolId, TOOLS } from "../../contract/index.ts";

/**
 * Whether the converter runs a tool: the available ones (contract `ContainerToolId`). Kept apart
 * from handlers.ts so the HTTP process checks ids without loading the engines (MuPDF, sharp);
 * handlers.ts, typed by the same id set, guarantees each one has a handler in the runners.
 */
export function isContainerToolId(id: string): id is ContainerToolId {
  return isToolId(id) && TOOLS[id].available;
}
