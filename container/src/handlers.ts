/**
 * The conversions the container runs: every tool folder's `container.ts` (a missing one for an
 * available tool fails type-checking). Edge tools reach the container only for inputs over their
 * edge budget.
 */
import type { ContainerToolId } from "../../contract/index.ts";
import { CONTAINER_ENGINES } from "../../engines/generated/container-engines.ts";
import type { HandlerTable } from "../../engines/types.ts";

export const handlers: HandlerTable<ContainerToolId> = CONTAINER_ENGINES;
