/** Compress a PDF with MuPDF.js and MozJPEG (engines/pdf/compress.ts). */
import { compressPdf } from "../../engines/pdf/compress.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, compressPdf);
