/**
 * Whether a job may run at the edge: the tool is declared with an edge engine and every input is
 * within its budget in bytes and in pixels. Pixels come from the image header, read before any
 * decode; a header that cannot be read sends the job to the container, which gives the verdict.
 */
import { AppError, TOOLS, type ToolId } from "../contract/index.ts";
import { readImageInfo } from "./image/image-info.ts";
import type { EngineInput } from "./types.ts";

function pixelCount(bytes: Uint8Array): number | undefined {
  try {
    const { width, height } = readImageInfo(bytes);
    return width * height;
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

export function fitsEdgeBudget(toolId: ToolId, inputs: readonly EngineInput[]): boolean {
  const { engine } = TOOLS[toolId];
  if (engine.kind !== "edge") return false;
  const { maxBytes, maxPixels } = engine.edgeBudget;
  return inputs.every((input) => {
    if (input.bytes.length > maxBytes) return false;
    const pixels = pixelCount(input.bytes);
    return pixels !== undefined && pixels <= maxPixels;
  });
}
