import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, pdfInput } from "../../contract/tool-kit.ts";

/**
 * The `order` field (page-order.ts): source pages or runs, each optionally turned, `0` a blank
 * page, spaces allowed around the commas.
 */
export const ORDER_FIELD = /^\s*\d+(-\d+)?(@(90|180|270))?(\s*,\s*\d+(-\d+)?(@(90|180|270))?)*\s*$/;

/**
 * Organize PDF: the pages of one PDF in a new order, each optionally turned by 90°, 180° or 270°,
 * pages repeated, blank pages inserted (`0`), pages not listed removed. Links, bookmarks and form
 * fields of kept pages stay.
 */
export default declareTool({
  id: "organize-pdf",
  category: "pdf",
  order: 12,
  icon: "split",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    // Required by the engine (a schema default could not know the page count).
    order: z.string().regex(ORDER_FIELD, "pages like 4,2@90,1 (0: a blank page)").optional(),
  }),
  output: { kind: "pdf", suffix: "-organized" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/organize", fileField: "file", fields: {} },
});
