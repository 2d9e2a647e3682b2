import { z } from "zod";
import {
  CONTAINER,
  declareTool,
  NOT_BUILT,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** PDF to Excel: the tables of the chosen pages. `?output_format=xlsx` asks for the file itself. */
export default declareTool({
  id: "pdf-to-excel",
  category: "pdf",
  order: 5,
  icon: "table",
  ...NOT_BUILT,
  input: pdfInput(1),
  options: z.object({ page_ranges: options.pageRanges() }),
  output: { kind: "xlsx" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("xlsx"),
});
