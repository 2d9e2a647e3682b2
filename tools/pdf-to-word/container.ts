/** PDF to Word with MuPDF.js structured text and the docx package (engines/pdf/pdf-to-word.ts). */
import { pdfToWord } from "../../engines/pdf/pdf-to-word.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, pdfToWord);
