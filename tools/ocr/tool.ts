import { comingSoonPdfTool } from "../../contract/tool-kit.ts";

/** PDF OCR: recognise the text of scanned pages (announced as coming soon; a premium feature, spec §6). */
export default { ...comingSoonPdfTool("ocr", 9, "ocr"), premium: true } as const;
