import { imageConverterTool } from "../../contract/tool-kit.ts";

/** JPG to PNG: lossless PNG at the edge within its budget, in the container above it (sharp). */
export default imageConverterTool({
  id: "jpg-to-png",
  order: 2,
  source: "jpeg",
  target: "png",
  targetFormat: "png",
  available: true,
});
