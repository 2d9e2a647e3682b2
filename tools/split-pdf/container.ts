/** Split a PDF with MuPDF.js (engines/pdf/split.ts). */
import { splitPdf } from "../../engines/pdf/split.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, splitPdf);
