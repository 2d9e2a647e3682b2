/** The container handler of an image converter tool: sharp (sharp-convert-image.ts). */
import type { EngineHandler } from "../types.ts";
import {
  converterJob,
  type ImageConverterDeclaration,
  type ImageConverterOptions,
} from "./converter-tool.ts";
import { sharpConvertImage } from "./sharp-convert-image.ts";

export function sharpImageConverter(tool: ImageConverterDeclaration): EngineHandler<ImageConverterOptions> {
  return async (inputs, options, progress) => {
    const { bytes, ...settings } = converterJob(tool, inputs, options);
    return sharpConvertImage(bytes, settings, progress);
  };
}
