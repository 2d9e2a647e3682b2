/** PDF to Excel with MuPDF.js structured text and exceljs (engines/pdf/xlsx/pdf-to-xlsx.ts). */
import { pdfToExcel } from "../../engines/pdf/xlsx/pdf-to-xlsx.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, pdfToExcel);
