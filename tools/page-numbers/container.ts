/** Add page numbers with MuPDF.js (page-numbers.ts). */
import { engineFor } from "../../engines/types.ts";
import { addPageNumbers } from "./page-numbers.ts";
import tool from "./tool.ts";

export default engineFor(tool, addPageNumbers);
