import { imageConverterTool } from "../../contract/tool-kit.ts";

/** PNG to JPG: at the edge within its budget (MozJPEG WASM), in the container above it (sharp). */
export default imageConverterTool({
  id: "png-to-jpg",
  order: 1,
  source: "png",
  target: "jpeg",
  targetFormat: "jpg",
  available: true,
});
