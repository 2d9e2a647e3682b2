/**
 * The codecs of the edge image engines. The WASM ones (MozJPEG, libwebp) are instantiated from
 * precompiled modules handed in by the runtime: engines/image/codecs.ts imports the .wasm files
 * (workerd, wrangler's bundler, the Workers vitest plugin); engines/image/codecs.node.ts compiles
 * them from node_modules (Node tests, benchmarks). PNG is pure TypeScript: fast-png decodes
 * (it throws on bad data and leaves nothing behind), png-encode.ts writes.
 *
 * Each WASM codec is instantiated when a job first needs it and reused while the isolate's WASM
 * heaps stay within the edge budget (edge-heap.ts): WASM memory never shrinks, so an instance that
 * a call left holding more is dropped after that call, and the next job makes a fresh one (the old
 * memory is then collectable). Codec calls are synchronous, so two jobs never run inside the same
 * instance at the same time.
 */

import mozjpegDecoderFactory from "@jsquash/jpeg/codec/dec/mozjpeg_dec.js";
import mozjpegEncoderFactory from "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";
import { defaultOptions as mozjpegDefaults } from "@jsquash/jpeg/meta.js";
import { initEmscriptenModule } from "@jsquash/jpeg/utils.js";
import webpDecoderFactory from "@jsquash/webp/codec/dec/webp_dec.js";
import webpEncoderFactory from "@jsquash/webp/codec/enc/webp_enc_simd.js";
import { defaultOptions as webpDefaults } from "@jsquash/webp/meta.js";
import type { ImageTarget } from "./conversion-plan.ts";
import { EDGE_WASM_HEAP_BYTES } from "./edge-heap.ts";
import type { ImageKind } from "./image-info.ts";
import { decodePngPixels } from "./png-decode.ts";
import { encodePng, type PngChannels } from "./png-encode.ts";

/** Precompiled codec modules (`WebAssembly.Module`), one per .wasm file. */
export interface CodecModules {
  /** @jsquash/jpeg/codec/enc/mozjpeg_enc.wasm */
  readonly jpegEncoder: WebAssembly.Module;
  /** @jsquash/jpeg/codec/dec/mozjpeg_dec.wasm */
  readonly jpegDecoder: WebAssembly.Module;
  /** @jsquash/webp/codec/dec/webp_dec.wasm */
  readonly webpDecoder: WebAssembly.Module;
  /** @jsquash/webp/codec/enc/webp_enc_simd.wasm */
  readonly webpEncoder: WebAssembly.Module;
}
export type WasmCodec = keyof CodecModules;
export const WASM_CODECS: readonly WasmCodec[] = ["jpegEncoder", "jpegDecoder", "webpDecoder", "webpEncoder"];

const DECODER: Partial<Record<ImageKind, WasmCodec>> = { jpeg: "jpegDecoder", webp: "webpDecoder" };
const ENCODER: Partial<Record<ImageTarget, WasmCodec>> = { jpeg: "jpegEncoder", webp: "webpEncoder" };

/** The WASM codecs converting a `source` image to `target` uses (PNG is decoded and written in TypeScript). */
export function wasmCodecsFor(source: ImageKind, target: ImageTarget): WasmCodec[] {
  return [DECODER[source], ENCODER[target]].filter((codec): codec is WasmCodec => codec !== undefined);
}

/** 8-bit RGBA pixels, row-major, no padding: `data.length === width * height * 4`. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array | Uint8ClampedArray;
}

export interface JpegEncodeOptions {
  /** 1–100. */
  readonly quality: number;
  /** One luma channel instead of YCbCr (for grey images). */
  readonly grayscale: boolean;
}

export interface WebpEncodeOptions {
  /** 1–100. */
  readonly quality: number;
}

export interface PngEncodeOptions {
  /** Write one grey channel (R of each pixel) instead of RGB. */
  readonly grey: boolean;
  /** Keep the alpha channel. */
  readonly alpha: boolean;
}

export interface ImageCodecs {
  /** PNG → 8-bit RGBA (palette, grey, low bit depths, tRNS expanded; 16-bit reduced to 8). Throws on bad data. */
  decodePng(bytes: Uint8Array): RgbaImage;
  /** JPEG (grey, YCbCr, RGB; not CMYK) → 8-bit RGBA as stored (EXIF orientation not applied). */
  decodeJpeg(bytes: Uint8Array): RgbaImage;
  /** A still WebP (lossy, lossless, with alpha) → 8-bit RGBA. */
  decodeWebp(bytes: Uint8Array): RgbaImage;
  /** RGBA → progressive MozJPEG, 4:2:0, trellis quantisation, optimised Huffman tables. */
  encodeJpeg(image: RgbaImage, options: JpegEncodeOptions): Uint8Array;
  /** RGBA → lossless PNG, adaptive row filters, best deflate level (png-encode.ts). */
  encodePng(image: RgbaImage, options: PngEncodeOptions): Uint8Array;
  /** RGBA → lossy WebP (libwebp method 4), alpha kept losslessly. */
  encodeWebp(image: RgbaImage, options: WebpEncodeOptions): Uint8Array;
}

interface ImageDataLike {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}
/** What every Emscripten module exposes of its memory (the view is replaced when the heap grows). */
interface WasmHeap {
  readonly HEAPU8: Uint8Array;
}
/** The slices of the Emscripten modules the codecs use. */
interface WasmCodecModules {
  jpegEncoder: {
    encode(
      data: RgbaImage["data"],
      width: number,
      height: number,
      options: typeof mozjpegDefaults,
    ): Uint8Array;
  };
  jpegDecoder: { decode(data: Uint8Array, preserveOrientation: boolean): ImageDataLike | null };
  webpDecoder: { decode(data: Uint8Array): ImageDataLike | null };
  webpEncoder: {
    encode(
      data: RgbaImage["data"],
      width: number,
      height: number,
      options: typeof webpDefaults,
    ): Uint8Array | null;
  };
}

const FACTORIES: Record<WasmCodec, unknown> = {
  jpegEncoder: mozjpegEncoderFactory,
  jpegDecoder: mozjpegDecoderFactory,
  webpDecoder: webpDecoderFactory,
  webpEncoder: webpEncoderFactory,
};

/** libjpeg colour spaces accepted by the squoosh MozJPEG wrapper. */
const JCS_GRAYSCALE = 1;
const JCS_YCBCR = 3;

const instances: { [K in WasmCodec]?: Promise<WasmCodecModules[K]> } = {};
/** The instances that finished instantiating, for their heap sizes. */
const heaps: { [K in WasmCodec]?: WasmHeap } = {};

/** Bytes of WASM memory the cached codec instances hold now (what the isolate keeps between jobs). */
export function wasmHeapBytes(): number {
  return Object.values(heaps).reduce((sum, heap) => sum + heap.HEAPU8.buffer.byteLength, 0);
}

/** Forgets the instance of `name`: the next job instantiates a fresh one. */
function drop(name: WasmCodec): void {
  delete instances[name];
  delete heaps[name];
}

/**
 * The squoosh glue calls `new ImageData(...)`; workerd and Node have none. The glue installs a
 * minimal one only where it detects Node or Cloudflare Workers, so make sure one exists.
 */
function ensureImageDataGlobal(): void {
  const scope = globalThis as { ImageData?: unknown };
  if (scope.ImageData !== undefined) return;
  scope.ImageData = class ImageData {
    readonly data: Uint8ClampedArray;
    readonly width: number;
    readonly height: number;
    constructor(data: Uint8ClampedArray, width: number, height: number) {
      this.data = data;
      this.width = width;
      this.height = height;
    }
  };
}

function instantiate<K extends WasmCodec>(name: K, modules: CodecModules): Promise<WasmCodecModules[K]> {
  const cached = instances[name] as Promise<WasmCodecModules[K]> | undefined;
  if (cached) return cached;
  ensureImageDataGlobal();
  const created = initEmscriptenModule(
    FACTORIES[name] as Parameters<typeof initEmscriptenModule>[0],
    modules[name],
  ) as Promise<unknown> as Promise<WasmCodecModules[K]>;
  // A failed instantiation is not cached, so the next job tries again.
  created.then(
    (module) => {
      if (instances[name] === created) heaps[name] = module as unknown as WasmHeap;
    },
    () => {
      if (instances[name] === created) drop(name);
    },
  );
  (instances as Record<WasmCodec, unknown>)[name] = created;
  return created;
}

/**
 * Runs one call inside a WASM codec. An abort inside it (e.g. out of memory) leaves the instance
 * unusable and its memory leaked: it is dropped, and the next job instantiates a fresh one. So is
 * an instance the call grew past the budget, counting every cached instance's heap, so the isolate
 * never keeps more than `EDGE_WASM_HEAP_BYTES` of WASM memory between calls.
 */
function guarded<T>(name: WasmCodec, call: () => T): T {
  try {
    return call();
  } catch (error) {
    drop(name);
    throw error;
  } finally {
    if (wasmHeapBytes() > EDGE_WASM_HEAP_BYTES) drop(name);
  }
}

function notLoaded(name: WasmCodec): never {
  throw new Error(`codec ${name} was not loaded for this job`);
}

/**
 * Instantiates the WASM codecs named in `wanted` (all by default; once per isolate) and returns
 * synchronous wrappers. Calling a codec that was not loaded throws.
 */
export async function loadImageCodecs(
  modules: CodecModules,
  wanted: readonly WasmCodec[] = WASM_CODECS,
): Promise<ImageCodecs> {
  const loaded: Partial<WasmCodecModules> = {};
  await Promise.all(
    wanted.map(async (name) => {
      (loaded as Record<WasmCodec, unknown>)[name] = await instantiate(name, modules);
    }),
  );
  const { jpegEncoder, jpegDecoder, webpDecoder, webpEncoder } = loaded;
  const toImage = (name: WasmCodec, result: ImageDataLike | null): RgbaImage => {
    if (!result) throw new Error(`${name} could not decode the image`);
    return { width: result.width, height: result.height, data: result.data };
  };
  return {
    decodePng: decodePngPixels,
    decodeJpeg(bytes) {
      const codec = jpegDecoder ?? notLoaded("jpegDecoder");
      return toImage(
        "jpegDecoder",
        guarded("jpegDecoder", () => codec.decode(bytes, false)),
      );
    },
    decodeWebp(bytes) {
      const codec = webpDecoder ?? notLoaded("webpDecoder");
      return toImage(
        "webpDecoder",
        guarded("webpDecoder", () => codec.decode(bytes)),
      );
    },
    encodeJpeg(image, options) {
      const codec = jpegEncoder ?? notLoaded("jpegEncoder");
      const jpeg = guarded("jpegEncoder", () =>
        codec.encode(image.data, image.width, image.height, {
          ...mozjpegDefaults,
          quality: options.quality,
          color_space: options.grayscale ? JCS_GRAYSCALE : JCS_YCBCR,
          // Always 4:2:0: MozJPEG's automatic choice switches to 4:4:4 at high quality, which needed
          // up to 21 % more bytes at equal SSIM in the measurements of engines.md.
          auto_subsample: false,
          chroma_subsample: 2,
          // Quantisation table 3 (ImageMagick's), as sharp's `mozjpeg: true`: in bench/jpeg-settings.ts
          // tables 0, 2 and 4 need fewer bytes at equal luma SSIM only by quantising colour more
          // coarsely (more bytes at equal RGB and chroma SSIM), tables 1 and 7 win at full resolution
          // but lose at viewing scale; no other table wins on every measure.
        }),
      );
      return withoutJfif(jpeg);
    },
    encodePng(image, options) {
      const channels = ((options.grey ? 1 : 3) + (options.alpha ? 1 : 0)) as PngChannels;
      return encodePng(packChannels(image, options), image.width, image.height, channels);
    },
    encodeWebp(image, options) {
      const codec = webpEncoder ?? notLoaded("webpEncoder");
      const out = guarded("webpEncoder", () =>
        codec.encode(image.data, image.width, image.height, { ...webpDefaults, quality: options.quality }),
      );
      if (!out) throw new Error("the WebP encoder failed");
      return out;
    },
  };
}

/**
 * The JPEG without its JFIF APP0 segment (18 bytes; libvips writes none): decoders read a
 * three-component JPEG as YCbCr without it, and the file is then byte for byte what sharp's
 * MozJPEG writes at the same settings (measured at quality 85 and 95).
 */
function withoutJfif(jpeg: Uint8Array): Uint8Array {
  const isJfif =
    jpeg[2] === 0xff && jpeg[3] === 0xe0 && String.fromCharCode(...jpeg.subarray(6, 11)) === "JFIF\0";
  if (!isJfif) return jpeg;
  const length = ((jpeg[4] ?? 0) << 8) | (jpeg[5] ?? 0);
  const out = new Uint8Array(jpeg.length - 2 - length);
  out.set(jpeg.subarray(0, 2));
  out.set(jpeg.subarray(4 + length), 2);
  return out;
}

/** RGBA → the PNG's samples: grey (R) or RGB, with or without alpha. */
function packChannels(image: RgbaImage, options: PngEncodeOptions): Uint8Array {
  const { data } = image;
  if (!options.grey && options.alpha)
    return data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.length);
  const keep = options.grey ? [0] : [0, 1, 2];
  if (options.alpha) keep.push(3);
  const pixels = data.length / 4;
  const out = new Uint8Array(pixels * keep.length);
  for (let p = 0, o = 0; p < pixels; p++) for (const c of keep) out[o++] = data[p * 4 + c] ?? 0;
  return out;
}
