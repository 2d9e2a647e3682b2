import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/** Largest "every N pages" accepted: more than any PDF the 100 MB input limit lets through. */
export const MAX_PAGES_PER_PART = 100_000;

/**
 * Pages one split takes. Measured: every page of a 4,000-page PDF in 3.0 s at 171 MB; a
 * 10,000-page file ran the runner out of memory after 7 s.
 */
export const MAX_SPLIT_PAGES = 5_000;

/**
 * Split PDF: each comma-separated page range a part, every page a part, or parts of N pages. One
 * part is answered as a PDF, several as a ZIP (bookmarks, links and form fields of kept pages kept).
 */
export default declareTool({
  id: "split-pdf",
  category: "pdf",
  order: 2,
  icon: "split",
  ...AVAILABLE,
  input: pdfInput(1, MAX_SPLIT_PAGES),
  options: z.object({
    split_mode: z.enum(["ranges", "every-page", "every-n"]).default("ranges"),
    page_ranges: options.pageRanges(),
    pages_per_part: z.coerce.number().int().min(1).max(MAX_PAGES_PER_PART).default(2),
    password: options.inputPassword(),
  }),
  output: { kind: "zip", single: "pdf" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/split", fileField: "file", fields: {} },
});
