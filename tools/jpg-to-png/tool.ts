import { imageConverterTool } from "../../contract/tool-kit.ts";

/** JPG to PNG. */
export default imageConverterTool({
  id: "jpg-to-png",
  order: 2,
  source: "jpeg",
  target: "png",
  targetFormat: "png",
  available: false,
});
