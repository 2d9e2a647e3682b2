import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  CONTAINER_IMAGE_KINDS,
  declareTool,
  imageInput,
  options,
} from "../../contract/tool-kit.ts";

/**
 * Compress image. It shares /api/image/convert with the converters; the spec's client sends the
 * file's own format as `target_format` and the quality as a number, which is what selects it.
 * It runs in the container only: PNG quantisation (libimagequant) has no WASM build for the edge,
 * and one engine gives one behaviour for every type and size. The result keeps the input's type
 * (the engine names it); `output.kind` is only the declaration's default.
 */
export default declareTool({
  id: "compress-image",
  category: "image",
  order: 4,
  icon: "compress",
  ...AVAILABLE,
  input: imageInput(["jpeg", "png", "webp", "gif", ...CONTAINER_IMAGE_KINDS]),
  options: z.object({ quality: options.quality() }),
  output: { kind: "jpeg", suffix: "-compressed" },
  engine: CONTAINER,
  endpoint: {
    path: "/api/image/convert",
    fileField: "file",
    fields: {},
    select: (fields) => /^\d+$/.test(fields.quality?.trim() ?? ""),
  },
});
