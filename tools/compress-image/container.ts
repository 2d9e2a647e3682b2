/** Compress image in the container: libvips through sharp (engines/image/compress-image.ts). */
import { compressImage } from "../../engines/image/compress-image.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, compressImage);
