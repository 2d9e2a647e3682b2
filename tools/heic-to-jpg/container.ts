/** In the container, for images over the edge budget or needing colour management: sharp. */
import { sharpImageConverter } from "../../engines/image/sharp-image-converter.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, sharpImageConverter(tool));
