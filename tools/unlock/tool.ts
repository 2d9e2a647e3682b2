import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/**
 * Unlock PDF: a protected PDF → the same PDF without encryption. A PDF that opens without a
 * password (an owner password restricting printing, copying or editing) needs none: the empty
 * user password opens it, as every viewer does, whatever password is typed. One that needs its
 * password and has none is PDF_ENCRYPTED, a wrong one PDF_WRONG_PASSWORD, a PDF without
 * encryption PDF_NOT_ENCRYPTED; nothing is ever guessed. The password is a secret: kept out of
 * stored task state and never logged.
 */
export default declareTool({
  id: "unlock",
  category: "pdf",
  order: 11,
  icon: "unlock",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    password: options.passwordIfAny(
      "The password that opens the PDF (or its owner password). Leave it out, or empty, for a PDF " +
        "that opens without one: its restrictions on printing, copying and editing are removed.",
    ),
  }),
  output: { kind: "pdf", suffix: "-unlocked" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/unlock", fileField: "file", fields: {} },
});
