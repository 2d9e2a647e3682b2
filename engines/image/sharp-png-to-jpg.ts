/** The png-to-jpg conversion in the container (sharp-convert-image.ts), for callers that name it. */
import { sharpImageConverter } from "./sharp-image-converter.ts";

export { SHARP_MAX_PIXELS } from "./sharp-convert-image.ts";

export const sharpPngToJpg = sharpImageConverter({ input: { kinds: ["png"] }, output: { kind: "jpeg" } });
