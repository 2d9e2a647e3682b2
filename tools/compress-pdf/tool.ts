import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/**
 * Compress PDF: fonts subset, images resampled and re-encoded per level (low / medium / high, see
 * engines/pdf/compress-levels.ts), lossless re-save. The spec's call `?quality=` answers the file
 * itself (blob style); the screen starts a task with a `quality` field.
 */
export default declareTool({
  id: "compress-pdf",
  category: "pdf",
  order: 3,
  icon: "compress",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({ quality: options.qualityPreset(), password: options.inputPassword() }),
  output: { kind: "pdf", suffix: "-compressed" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/compress", fileField: "file", fields: {}, blob: { whenQuery: "quality" } },
});
