/** The conversions the container runs, one per tool it must handle (a missing one fails type-checking). */
import type { ContainerToolId } from "../../contract/index.ts";
import { sharpPngToJpg } from "../../engines/image/sharp-png-to-jpg.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import type { HandlerTable } from "../../engines/types.ts";

export const handlers: HandlerTable<ContainerToolId> = {
  "merge-pdf": mergePdfs,
  // Edge tools reach the container only for inputs over their edge budget.
  "png-to-jpg": sharpPngToJpg,
};
