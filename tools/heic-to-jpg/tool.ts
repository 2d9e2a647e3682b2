import { CONTAINER, imageConverterTool } from "../../contract/tool-kit.ts";

/**
 * HEIC to JPG: iPhone photos (HEIF with HEVC pictures) to JPG, in the container only (no HEVC
 * decoder fits the edge). It also takes AVIF, TIFF and BMP, so `target_format=jpg` finds a path for
 * every image kind.
 */
export default imageConverterTool({
  id: "heic-to-jpg",
  order: 5,
  source: "heic",
  target: "jpeg",
  targetFormat: "jpg",
  available: true,
  engine: CONTAINER,
});
