import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  declareTool,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/**
 * PDF to Excel (spec §2): the tables of the chosen pages, one worksheet each, numbers and dates as
 * typed cells. `?output_format=xlsx` asks for the file itself.
 */
export default declareTool({
  id: "pdf-to-excel",
  category: "pdf",
  order: 5,
  icon: "table",
  ...AVAILABLE,
  // 800 text pages took 4.4 s; 10,000 pages ran out of memory after 42 s.
  input: pdfInput(1, 2_000),
  options: z.object({
    page_ranges: options.pageRanges(),
    /** Also put the text outside the tables on a sheet of its own. */
    text_sheet: options.flag(),
    password: options.inputPassword(),
  }),
  output: { kind: "xlsx" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("xlsx"),
});
