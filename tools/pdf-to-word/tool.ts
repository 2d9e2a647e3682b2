import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  declareTool,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/**
 * PDF to Word: an editable DOCX (paragraphs, headings, lists, tables, pictures, running headers and
 * footers) from the PDF's text layer. `ocr` is the premium option the screen shows disabled until
 * OCR exists. `?output_format=docx` in the query asks for the file itself.
 */
export default declareTool({
  id: "pdf-to-word",
  category: "pdf",
  order: 4,
  icon: "document",
  ...AVAILABLE,
  // 800 text pages took 5.8 s; 10,000 pages ran out of memory after 39 s.
  input: pdfInput(1, 2_000),
  options: z.object({ ocr: options.flag(), password: options.inputPassword() }),
  output: { kind: "docx" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("docx"),
});
