/** Add a text watermark with MuPDF.js (watermark.ts). */
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";
import { addWatermark } from "./watermark.ts";

export default engineFor(tool, addWatermark);
