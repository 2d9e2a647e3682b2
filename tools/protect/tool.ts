import { comingSoonPdfTool } from "../../contract/tool-kit.ts";

/** Protect PDF with a password (announced as coming soon). */
export default comingSoonPdfTool("protect", 10, "lock");
