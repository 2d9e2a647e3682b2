/** Remove a PDF's encryption with MuPDF.js, given its password (unlock-pdf.ts). */
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";
import { unlockPdf } from "./unlock-pdf.ts";

export default engineFor(tool, unlockPdf);
