/**
 * Whether a job may run at the edge: the tool is declared with an edge engine and every input is
 * within its budget in bytes and in pixels, one the edge codecs convert exactly as the container
 * does (no GIF, no colour transform: image-info.ts `convertibleAtEdge`), and one whose conversion
 * keeps the WASM heap of the codecs it uses within `EDGE_WASM_HEAP_BYTES` (image/edge-heap.ts).
 * Everything comes from the image header, read before any decode; a header that cannot be read
 * sends the job to the container, which gives the verdict.
 */
import { AppError, type FileKind, TOOLS, type ToolId } from "../contract/index.ts";
import type { ImageTarget } from "./image/conversion-plan.ts";
import { EDGE_WASM_HEAP_BYTES, jobHeapEstimate } from "./image/edge-heap.ts";
import { wasmCodecsFor } from "./image/image-codecs.ts";
import { convertibleAtEdge, type ImageInfo, readImageInfo } from "./image/image-info.ts";
import type { EngineInput } from "./types.ts";

const EDGE_TARGETS: readonly FileKind[] = ["jpeg", "png", "webp"] satisfies ImageTarget[];

/** The header of an image the edge can convert; undefined for anything else. */
function edgeImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  try {
    const info = readImageInfo(bytes);
    return convertibleAtEdge(info) ? info : undefined;
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/** The WASM heap converting the image to `target` at the edge needs; undefined when it writes no image. */
function edgeHeapBytes(info: ImageInfo, inputBytes: number, target: FileKind): number | undefined {
  if (!EDGE_TARGETS.includes(target)) return undefined;
  const codecs = wasmCodecsFor(info.kind, target as ImageTarget);
  return jobHeapEstimate(codecs, info.width * info.height, inputBytes);
}

export function fitsEdgeBudget(toolId: ToolId, inputs: readonly EngineInput[]): boolean {
  const { engine, output } = TOOLS[toolId];
  if (engine.kind !== "edge") return false;
  const { maxBytes, maxPixels } = engine.edgeBudget;
  return inputs.every((input) => {
    if (input.bytes.length > maxBytes) return false;
    const info = edgeImageInfo(input.bytes);
    if (info === undefined || info.width * info.height > maxPixels) return false;
    const heap = edgeHeapBytes(info, input.bytes.length, output.kind);
    return heap !== undefined && heap <= EDGE_WASM_HEAP_BYTES;
  });
}
