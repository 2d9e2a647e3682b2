/** The conversions the Worker runs itself, one per edge tool (a missing one fails type-checking). */
import type { EdgeToolId } from "../contract/index.ts";
import { pngToJpg } from "./image/png-to-jpg.ts";
import type { HandlerTable } from "./types.ts";

export const edgeHandlers: HandlerTable<EdgeToolId> = {
  "png-to-jpg": pngToJpg,
};
