import { z } from "zod";
import {
  CONTAINER,
  declareTool,
  NOT_BUILT,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** PDF to Word: an editable DOCX. `?output_format=docx` in the query asks for the file itself. */
export default declareTool({
  id: "pdf-to-word",
  category: "pdf",
  order: 4,
  icon: "document",
  ...NOT_BUILT,
  input: pdfInput(1),
  options: z.object({ ocr: options.flag() }),
  output: { kind: "docx" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("docx"),
});
