/** The png-to-jpg tool at the edge: one PNG in, one JPEG out (see convert-png-to-jpg.ts). */
import { AppError, jpegQuality, TOOLS } from "../../contract/index.ts";
import type { ToolHandler } from "../types.ts";
import { loadEdgeCodecs } from "./codecs.ts";
import { convertPngToJpg } from "./convert-png-to-jpg.ts";

export const pngToJpg: ToolHandler<"png-to-jpg"> = async (inputs, options, progress) => {
  const [input, ...rest] = inputs;
  if (!input) throw new AppError("NO_FILE", "png-to-jpg needs one PNG");
  if (rest.length > 0) throw new AppError("TOO_MANY_FILES", "png-to-jpg converts one PNG at a time");
  if (input.kind !== "png")
    throw new AppError("UNSUPPORTED_FILE_TYPE", `png-to-jpg got a ${input.kind} file`);
  const settings = {
    quality: jpegQuality(options.quality),
    maxPixels: TOOLS["png-to-jpg"].engine.edgeBudget.maxPixels,
  };
  return convertPngToJpg(input.bytes, settings, loadEdgeCodecs, progress);
};
