/** PNG to JPG in the container, for images over the edge budget: libvips through sharp. */
import { sharpPngToJpg } from "../../engines/image/sharp-png-to-jpg.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, sharpPngToJpg);
