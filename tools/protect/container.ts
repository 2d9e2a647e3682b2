/** Encrypt a PDF with MuPDF.js, AES-256 revision 6 (protect-pdf.ts). */
import { engineFor } from "../../engines/types.ts";
import { protectPdf } from "./protect-pdf.ts";
import tool from "./tool.ts";

export default engineFor(tool, protectPdf);
