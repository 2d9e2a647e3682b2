/** PDF to JPG with MuPDF.js and sharp (engines/pdf/pdf-to-jpg.ts). */
import { pdfToJpg } from "../../engines/pdf/pdf-to-jpg.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, pdfToJpg);
