import { comingSoonPdfTool } from "../../contract/tool-kit.ts";

/** eSign PDF (announced as coming soon). */
export default comingSoonPdfTool("sign", 12, "pen");
