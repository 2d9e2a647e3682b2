import { comingSoonPdfTool } from "../../contract/tool-kit.ts";

/** eSign PDF (announced as coming soon). */
export default comingSoonPdfTool("sign", 15, "pen");
