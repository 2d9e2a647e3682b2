/** PNG to JPG at the edge: one PNG in, one JPEG out (see engines/image/convert-png-to-jpg.ts). */
import { AppError, jpegQuality } from "../../contract/index.ts";
import { loadEdgeCodecs } from "../../engines/image/codecs.ts";
import { convertPngToJpg } from "../../engines/image/convert-png-to-jpg.ts";
import { engineFor } from "../../engines/types.ts";
import tool from "./tool.ts";

export default engineFor(tool, async (inputs, options, progress) => {
  const [input, ...rest] = inputs;
  if (!input) throw new AppError("NO_FILE", "One PNG is needed.");
  if (rest.length > 0) throw new AppError("TOO_MANY_FILES", "One PNG at a time.");
  if (input.kind !== "png") throw new AppError("UNSUPPORTED_FILE_TYPE", "The file is not a PNG.");
  const settings = { quality: jpegQuality(options.quality), maxPixels: tool.engine.edgeBudget.maxPixels };
  return convertPngToJpg(input.bytes, settings, loadEdgeCodecs, progress);
});
