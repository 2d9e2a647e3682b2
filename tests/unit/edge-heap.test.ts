/**
 * The edge's WASM heap budget (engines/image/edge-heap.ts) on the real codecs in Node: the model
 * is never below the heap a call leaves, a call that grows the isolate's WASM memory past the
 * budget drops its instance (the next job gets a fresh one), and jobs whose codecs would need
 * more than the budget are sent to the container.
 */
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { fitsEdgeBudget } from "../../engines/edge-budget.ts";
import { loadNodeCodecs } from "../../engines/image/codecs.node.ts";
import { codecHeapEstimate, EDGE_WASM_HEAP_BYTES } from "../../engines/image/edge-heap.ts";
import { type RgbaImage, wasmHeapBytes } from "../../engines/image/image-codecs.ts";

/** Noise: the worst case for the encoders' output buffers. */
function noise(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  let state = 12345;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return { width, height, data };
}

const JPEG = { quality: 85, grayscale: false };

describe("edge WASM heap", () => {
  it("estimates at least the heap MozJPEG's encoder and decoder are left with", async () => {
    for (const [width, height] of [
      [800, 600],
      [1200, 900],
      [1600, 1200],
    ] as const) {
      const codecs = await loadNodeCodecs(["jpegEncoder", "jpegDecoder"]);
      const jpeg = codecs.encodeJpeg(noise(width, height), JPEG);
      codecs.decodeJpeg(jpeg);
      const pixels = width * height;
      // Both instances are the same ones from call to call (the total stays within the budget).
      expect(wasmHeapBytes(), `${width}×${height}`).toBeLessThanOrEqual(
        codecHeapEstimate("jpegEncoder", pixels, 0) + codecHeapEstimate("jpegDecoder", pixels, jpeg.length),
      );
    }
    expect(wasmHeapBytes()).toBeLessThanOrEqual(EDGE_WASM_HEAP_BYTES);
  }, 60_000);

  it("drops an instance a call grew past the budget, so the next job starts from a fresh heap", async () => {
    const codecs = await loadNodeCodecs(["jpegEncoder"]);
    // 4 MP of noise grows MozJPEG's heap to about 92 MB.
    const jpeg = codecs.encodeJpeg(noise(2400, 1700), JPEG);
    expect(jpeg.length).toBeGreaterThan(1_000_000);
    expect(wasmHeapBytes()).toBeLessThanOrEqual(EDGE_WASM_HEAP_BYTES);
    const fresh = await loadNodeCodecs(["jpegEncoder"]);
    expect(wasmHeapBytes()).toBeLessThanOrEqual(EDGE_WASM_HEAP_BYTES);
    // The fresh instance holds its initial memory only, beside the decoder the first test left at
    // its own initial 16.1 MiB.
    const small = fresh.encodeJpeg(noise(64, 64), JPEG);
    expect(small.length).toBeGreaterThan(0);
    expect(wasmHeapBytes()).toBeLessThanOrEqual(codecHeapEstimate("jpegEncoder", 64 * 64, 0) + 17_000_000);
  }, 60_000);

  it("sends a WebP whose decoder and encoder together need more than the budget to the container", async () => {
    const { maxPixels } = TOOLS["webp-to-jpg"].engine.edgeBudget as { maxPixels: number };
    const codecs = await loadNodeCodecs(["webpEncoder"]);
    const flat = (width: number, height: number) => ({
      width,
      height,
      data: new Uint8Array(width * height * 4).fill(180),
    });
    // 2.34 MP: within the pixel budget, but libwebp's decoder and MozJPEG's encoder need ~75 MB.
    const large = codecs.encodeWebp(flat(1800, 1300), { quality: 80 });
    expect(1800 * 1300).toBeLessThanOrEqual(maxPixels);
    expect(fitsEdgeBudget("webp-to-jpg", [{ name: "a.webp", kind: "webp", bytes: large }])).toBe(false);
    const small = codecs.encodeWebp(flat(1000, 1000), { quality: 80 });
    expect(fitsEdgeBudget("webp-to-jpg", [{ name: "b.webp", kind: "webp", bytes: small }])).toBe(true);
    // PNG is decoded in TypeScript: the encoder alone counts, and the whole pixel budget fits.
    expect(codecHeapEstimate("jpegEncoder", maxPixels, 0)).toBeLessThanOrEqual(EDGE_WASM_HEAP_BYTES);
  }, 60_000);
});
