import { z } from "zod";
import { CONTAINER, declareTool, NOT_BUILT, options, pdfInput } from "../../contract/tool-kit.ts";

/** Split PDF: page ranges, or every page, into parts. */
export default declareTool({
  id: "split-pdf",
  category: "pdf",
  order: 2,
  icon: "split",
  ...NOT_BUILT,
  input: pdfInput(1),
  options: z.object({
    split_mode: z.enum(["ranges", "every-page"]).default("ranges"),
    page_ranges: options.pageRanges(),
  }),
  output: { kind: "zip" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/split", fileField: "file", fields: {} },
});
