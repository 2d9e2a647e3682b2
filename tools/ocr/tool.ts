import { comingSoonPdfTool } from "../../contract/tool-kit.ts";

/** PDF OCR: recognise the text of scanned pages (announced as coming soon). */
export default comingSoonPdfTool("ocr", 9, "ocr");
