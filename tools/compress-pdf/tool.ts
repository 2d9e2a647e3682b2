import { z } from "zod";
import { CONTAINER, declareTool, NOT_BUILT, options, pdfInput } from "../../contract/tool-kit.ts";

/** Compress PDF: the spec's call answers the file itself (`?quality=`, blob style). */
export default declareTool({
  id: "compress-pdf",
  category: "pdf",
  order: 3,
  icon: "compress",
  ...NOT_BUILT,
  input: pdfInput(1),
  options: z.object({ quality: options.qualityPreset() }),
  output: { kind: "pdf", suffix: "-compressed" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/compress", fileField: "file", fields: {}, blob: "always" },
});
