import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/** Merge PDFs: several PDFs in the order given, one PDF out (bookmarks, links and forms kept). */
export default declareTool({
  id: "merge-pdf",
  category: "pdf",
  order: 1,
  icon: "merge",
  ...AVAILABLE,
  input: pdfInput(50),
  options: z.object({ password: options.inputPassword(), passwords: options.inputPasswords() }),
  output: { kind: "pdf", suffix: "-merged" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/merge", fileField: "files", fields: {} },
});
