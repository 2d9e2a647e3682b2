import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/** Merge PDFs: several PDFs in the order given, one PDF out (bookmarks, links and forms kept). */
export default declareTool({
  id: "merge-pdf",
  category: "pdf",
  order: 1,
  icon: "merge",
  ...AVAILABLE,
  // Two 5,000-page files merged in 40 s; a 33,810-page merge ran out of memory.
  input: pdfInput(50, 5_000),
  options: z.object({ password: options.inputPassword(), passwords: options.inputPasswords() }),
  output: { kind: "pdf", suffix: "-merged" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/merge", fileField: "files", fields: {} },
});
