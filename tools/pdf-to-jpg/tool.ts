import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  declareTool,
  options,
  pdfConvertEndpoint,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** Resolutions pages are rendered at: screen, the default (pdftoppm's and most peers'), print. */
export const RESOLUTIONS = [72, 150, 300] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const DEFAULT_RESOLUTION: Resolution = 150;

export const CONVERSION_MODES = ["convert-pages", "extract-images"] as const;

/**
 * PDF to JPG (spec §2): the selected pages rendered, or the images the PDF embeds extracted. One
 * JPG comes back as it is, several in a ZIP.
 */
export default declareTool({
  id: "pdf-to-jpg",
  category: "pdf",
  order: 6,
  icon: "image",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    conversion_mode: z.enum(CONVERSION_MODES).default("convert-pages"),
    page_ranges: options.pageRanges(),
    /** Dots per inch of rendered pages (convert-pages only). */
    dpi: z.coerce.number().pipe(z.literal(RESOLUTIONS)).default(DEFAULT_RESOLUTION),
    password: options.inputPassword(),
  }),
  output: { kind: "zip", single: "jpeg" },
  engine: CONTAINER,
  endpoint: pdfConvertEndpoint("jpg"),
});
