import { z } from "zod";
import { declareTool, EDGE_IMAGE, imageInput, NOT_BUILT, options } from "../../contract/tool-kit.ts";

/**
 * Compress image. It shares /api/image/convert with the converters; the spec's client sends the
 * file's own format as `target_format` and the quality as a number, which is what selects it.
 */
export default declareTool({
  id: "compress-image",
  category: "image",
  order: 4,
  icon: "compress",
  ...NOT_BUILT,
  input: imageInput(["jpeg", "png", "webp", "gif"]),
  options: z.object({ quality: options.quality() }),
  output: { kind: "jpeg", suffix: "-compressed" },
  engine: EDGE_IMAGE,
  endpoint: {
    path: "/api/image/convert",
    fileField: "file",
    fields: {},
    select: (fields) => /^\d+$/.test(fields.quality?.trim() ?? ""),
  },
});
