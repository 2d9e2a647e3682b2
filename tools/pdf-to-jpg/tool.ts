import { z } from "zod";
import {
  CONTAINER,
  declareTool,
  NOT_BUILT,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** PDF to JPG: pages rendered, or the embedded images extracted (spec §2). */
export default declareTool({
  id: "pdf-to-jpg",
  category: "pdf",
  order: 6,
  icon: "image",
  ...NOT_BUILT,
  input: pdfInput(1),
  options: z.object({
    conversion_mode: z.enum(["extract-images", "convert-pages"]).default("convert-pages"),
    page_ranges: options.pageRanges(),
  }),
  output: { kind: "zip" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("jpg"),
});
