/** Images to PDF with MuPDF.js and sharp (engines/pdf/images-to-pdf.ts). */
import { imagesToPdf } from "../../engines/pdf/images-to-pdf.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, imagesToPdf);
