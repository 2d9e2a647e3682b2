/** Sign PDF with MuPDF.js (stamp-signature.ts). */
import { engineFor } from "../../engines/types.ts";
import { stampSignature } from "./stamp-signature.ts";
import tool from "./tool.ts";

export default engineFor(tool, stampSignature);
