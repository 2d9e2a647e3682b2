import { imageConverterTool } from "../../contract/tool-kit.ts";

/** WebP to JPG: at the edge within its budget (MozJPEG WASM), in the container above it (sharp). */
export default imageConverterTool({
  id: "webp-to-jpg",
  order: 3,
  source: "webp",
  target: "jpeg",
  targetFormat: "jpg",
  available: true,
});
