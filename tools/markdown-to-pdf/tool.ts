import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, markdownInput } from "../../contract/tool-kit.ts";

/** Page sizes the PDF is laid out on: A4, the default, or US Letter. */
export const PAGE_SIZES = ["a4", "letter"] as const;
export type PageSizeChoice = (typeof PAGE_SIZES)[number];

/** Markdown to PDF (spec §2): one Markdown file typeset into a PDF. */
export default declareTool({
  id: "markdown-to-pdf",
  category: "pdf",
  order: 8,
  icon: "markdown",
  ...AVAILABLE,
  input: markdownInput,
  options: z.object({ page_size: z.enum(PAGE_SIZES).default("a4") }),
  output: { kind: "pdf" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/markdown-to-pdf", fileField: "file", fields: {} },
});
