import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/**
 * Protect PDF: the PDF encrypted with AES-256 (PDF 2.0, revision 6) under a password, with an
 * optional owner password and the permissions a viewer is asked to honour (all allowed unless a
 * flag turns one off). Passwords are secrets: kept out of stored task state and never logged.
 */
export default declareTool({
  id: "protect",
  category: "pdf",
  order: 10,
  icon: "lock",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    password: options.password("Password that opens the PDF (any Unicode, at most 127 bytes of UTF-8)."),
    owner_password: options.optionalPassword(
      "Password that lifts the permissions; without one, a random one is set so they hold for everyone.",
    ),
    allow_printing: options.flagOn(),
    allow_copying: options.flagOn(),
    allow_editing: options.flagOn(),
    allow_forms: options.flagOn(),
    allow_annotations: options.flagOn(),
    /** The password of a PDF that is protected already: it is opened with it, then protected anew. */
    input_password: options.inputPassword(),
  }),
  output: { kind: "pdf", suffix: "-protected" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/protect", fileField: "file", fields: {} },
});
