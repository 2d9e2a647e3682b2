/**
 * Whether a job may run at the edge: the tool is declared with an edge engine and every input is
 * within its budget in bytes and in pixels, and one the edge codecs convert exactly as the container
 * does (no GIF, no colour transform: image-info.ts `convertibleAtEdge`). Everything comes from the
 * image header, read before any decode; a header that cannot be read sends the job to the
 * container, which gives the verdict.
 */
import { AppError, TOOLS, type ToolId } from "../contract/index.ts";
import { convertibleAtEdge, readImageInfo } from "./image/image-info.ts";
import type { EngineInput } from "./types.ts";

/** Pixels of an image the edge can convert; undefined for anything else. */
function edgePixelCount(bytes: Uint8Array): number | undefined {
  try {
    const info = readImageInfo(bytes);
    return convertibleAtEdge(info) ? info.width * info.height : undefined;
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
    const pixels = edgePixelCount(input.bytes);
    return pixels !== undefined && pixels <= maxPixels;
  });
}
