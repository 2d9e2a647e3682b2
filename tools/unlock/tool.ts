import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/**
 * Unlock PDF: a protected PDF and its password (user or owner) → the same PDF without encryption.
 * A wrong password is PDF_WRONG_PASSWORD, a PDF without encryption PDF_NOT_ENCRYPTED; nothing is
 * ever guessed. The password is a secret: kept out of stored task state and never logged.
 */
export default declareTool({
  id: "unlock",
  category: "pdf",
  order: 11,
  icon: "unlock",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    password: options.password("The PDF's password (the one that opens it, or its owner password)."),
  }),
  output: { kind: "pdf", suffix: "-unlocked" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/unlock", fileField: "file", fields: {} },
});
