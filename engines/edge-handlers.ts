/**
 * The conversions the Worker runs itself: every tool folder's `edge.ts` (a missing one for an edge
 * tool fails type-checking).
 */
import type { EdgeToolId } from "../contract/index.ts";
import { EDGE_ENGINES } from "./generated/edge-engines.ts";
import type { HandlerTable } from "./types.ts";

export const edgeHandlers: HandlerTable<EdgeToolId> = EDGE_ENGINES;
