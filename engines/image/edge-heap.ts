/**
 * The WASM heap of the edge codecs. A WASM memory never shrinks: an instance keeps the largest heap
 * any job made it grow to for as long as it lives. So the edge takes a job only when the heap of
 * the codecs it uses stays within `EDGE_WASM_HEAP_BYTES` (engines/edge-budget.ts; the rest runs in
 * the container), and an instance whose isolate holds more than that after a call is dropped
 * (image-codecs.ts), so the next job makes a fresh one and the old memory can be collected.
 *
 * The model, from the image header alone: each instance starts with its module's initial memory
 * (256–259 pages of 64 KiB, 16–16.2 MiB) and then needs a fixed part plus bytes per pixel and per
 * input byte, grown in Emscripten's steps of 20 %. Measured in Node with the same .wasm files, heap
 * in MiB after one call on noise (the worst case for the encoders' output buffers), 1 / 1.5 / 2.5
 * / 3 / 4 MP: MozJPEG encoder 23.4 / 33.7 / 58.3 / 69.1 / 91.8, MozJPEG decoder 16.1 / 16.1 / 20.0
 * / 23.9 / 31.9, libwebp decoder 16.0 / 16.0 / 23.1 / 27.8 / 35.9; a second call of the same size
 * does not grow it (tests/unit/edge-heap.test.ts checks the model against the codecs).
 */
import type { WasmCodec } from "./image-codecs.ts";

const MB = 1024 * 1024;

/** The WASM heap one edge job may use, and the most an isolate keeps between jobs. */
export const EDGE_WASM_HEAP_BYTES = 64 * MB;

const PAGE = 64 * 1024;

/** Emscripten grows a heap by at least 20 % at a time. */
const GROWTH_SLACK = 1.2;

interface HeapModel {
  /** The module's initial memory (the heap before any call). */
  readonly initial: number;
  readonly fixed: number;
  readonly perPixel: number;
  /** The encoded input the decoder is handed, copied into its heap. */
  readonly perInputByte: number;
}

/**
 * Fitted above the measurements: the decoders hold the input and the RGBA output (4 B/px) plus
 * their row buffers; MozJPEG's encoder the RGBA input, the whole image's coefficients (progressive,
 * trellis) and its output buffer. The WebP encoder is measured too (up to 42 B/px at 2.5 MP) though
 * no edge tool writes WebP.
 */
const MODELS: Record<WasmCodec, HeapModel> = {
  jpegDecoder: { initial: 258 * PAGE, fixed: 2 * MB, perPixel: 6, perInputByte: 1 },
  webpDecoder: { initial: 256 * PAGE, fixed: 2 * MB, perPixel: 7, perInputByte: 1 },
  jpegEncoder: { initial: 259 * PAGE, fixed: 2 * MB, perPixel: 19, perInputByte: 0 },
  webpEncoder: { initial: 256 * PAGE, fixed: 2 * MB, perPixel: 40, perInputByte: 0 },
};

/** The heap one codec instance reaches on an image of `pixels` from `inputBytes` encoded bytes. */
export function codecHeapEstimate(codec: WasmCodec, pixels: number, inputBytes: number): number {
  const { initial, fixed, perPixel, perInputByte } = MODELS[codec];
  const needed = (fixed + perPixel * pixels + perInputByte * inputBytes) * GROWTH_SLACK;
  return Math.max(initial, Math.ceil(needed));
}

/** The WASM heap of a job using `codecs` on one image: every instance it needs, together. */
export function jobHeapEstimate(codecs: readonly WasmCodec[], pixels: number, inputBytes: number): number {
  return codecs.reduce((sum, codec) => sum + codecHeapEstimate(codec, pixels, inputBytes), 0);
}
