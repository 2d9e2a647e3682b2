import { imageConverterTool } from "../../contract/tool-kit.ts";

/** WebP to JPG. */
export default imageConverterTool({
  id: "webp-to-jpg",
  order: 3,
  source: "webp",
  target: "jpeg",
  targetFormat: "jpg",
  available: false,
});
