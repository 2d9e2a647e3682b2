/** Markdown to PDF with marked, DOMPurify and MuPDF's HTML layout (engines/markdown/). */
import { markdownToPdf } from "../../engines/markdown/markdown-to-pdf.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, markdownToPdf);
