/** At the edge, within the budget of the declaration: WASM codecs (engines/image/convert-image.ts). */
import { edgeImageConverter } from "../../engines/image/edge-image-converter.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, edgeImageConverter(tool));
