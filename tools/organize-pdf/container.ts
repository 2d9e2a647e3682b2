/** Organize the pages of a PDF with MuPDF.js (organize.ts). */
import { engineFor } from "../../engines/types.ts";
import { organizePdf } from "./organize.ts";
import tool from "./tool.ts";

export default engineFor(tool, organizePdf);
