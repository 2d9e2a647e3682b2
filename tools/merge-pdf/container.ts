/** Merge PDFs with MuPDF.js (engines/pdf/merge.ts). */
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, mergePdfs);
