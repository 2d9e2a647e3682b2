/**
 * The WASM codecs of the edge image engines, instantiated from precompiled modules handed in by the
 * runtime: engines/image/codecs.ts imports the .wasm files (workerd, wrangler's bundler, the Workers
 * vitest plugin); engines/image/codecs.node.ts compiles them from node_modules (Node tests, scripts).
 * The codecs' default loaders fetch their .wasm at run time, which fails in workerd.
 *
 * Each codec is instantiated once and reused: WASM memory never shrinks, so one grown instance per
 * isolate costs less than a fresh one per job. Codec calls are synchronous, so two jobs never run
 * inside the same instance at the same time.
 */

import mozjpegEncoderFactory from "@jsquash/jpeg/codec/enc/mozjpeg_enc.js";
import { defaultOptions as mozjpegDefaults } from "@jsquash/jpeg/meta.js";
import { initEmscriptenModule } from "@jsquash/jpeg/utils.js";
import initPng, { decode as decodePngWasm } from "@jsquash/png/codec/pkg/squoosh_png.js";

/** Precompiled codec modules (`WebAssembly.Module`), one per .wasm file. */
export interface CodecModules {
  /** @jsquash/png/codec/pkg/squoosh_png_bg.wasm */
  readonly png: WebAssembly.Module;
  /** @jsquash/jpeg/codec/enc/mozjpeg_enc.wasm */
  readonly jpegEncoder: WebAssembly.Module;
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
  /** One luma channel instead of YCbCr (for images whose pixels are all neutral grey). */
  readonly grayscale: boolean;
}

export interface ImageCodecs {
  /** PNG → 8-bit RGBA (palette, grey, tRNS expanded; 16-bit reduced to 8). Throws on bad data. */
  decodePng(bytes: Uint8Array): RgbaImage;
  /** RGBA → progressive MozJPEG, 4:2:0, trellis quantisation, optimised Huffman tables. */
  encodeJpeg(image: RgbaImage, options: JpegEncodeOptions): Uint8Array;
}

/** The slice of the MozJPEG Emscripten module the encoder uses. */
interface MozJpegEncoderModule {
  encode(
    data: Uint8Array | Uint8ClampedArray,
    width: number,
    height: number,
    options: typeof mozjpegDefaults,
  ): Uint8Array;
}

/** libjpeg colour spaces accepted by the squoosh MozJPEG wrapper. */
const JCS_GRAYSCALE = 1;
const JCS_YCBCR = 3;

let pngReady: Promise<void> | undefined;
let encoderReady: Promise<MozJpegEncoderModule> | undefined;

/**
 * The squoosh PNG glue calls `new ImageData(...)`; workerd and Node have none. The glue installs a
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

function loadPng(modules: CodecModules): Promise<void> {
  pngReady ??= (async () => {
    ensureImageDataGlobal();
    await initPng(modules.png);
  })();
  return pngReady;
}

function loadEncoder(modules: CodecModules): Promise<MozJpegEncoderModule> {
  encoderReady ??= initEmscriptenModule(
    mozjpegEncoderFactory as Parameters<typeof initEmscriptenModule>[0],
    modules.jpegEncoder,
  ) as Promise<unknown> as Promise<MozJpegEncoderModule>;
  return encoderReady;
}

/**
 * Instantiates the codecs (once per isolate) and returns synchronous wrappers around them.
 * A failed instantiation is not cached, so the next job tries again.
 */
export async function loadImageCodecs(modules: CodecModules): Promise<ImageCodecs> {
  let encoder: MozJpegEncoderModule;
  try {
    [, encoder] = await Promise.all([loadPng(modules), loadEncoder(modules)]);
  } catch (error) {
    pngReady = undefined;
    encoderReady = undefined;
    throw error;
  }
  return {
    decodePng(bytes) {
      const image = decodePngWasm(bytes) as RgbaImage | undefined;
      if (!image) throw new Error("PNG decoder returned no image");
      return image;
    },
    encodeJpeg(image, options) {
      try {
        return encoder.encode(image.data, image.width, image.height, {
          ...mozjpegDefaults,
          quality: options.quality,
          color_space: options.grayscale ? JCS_GRAYSCALE : JCS_YCBCR,
          // Always 4:2:0: MozJPEG's automatic choice switches to 4:4:4 at high quality, which needed
          // up to 21 % more bytes at equal SSIM in the measurements of engines.md.
          auto_subsample: false,
          chroma_subsample: 2,
        });
      } catch (error) {
        // An abort or exit inside the encoder (e.g. out of memory) leaves the instance unusable and
        // its memory leaked: drop it, and the next job instantiates a fresh one.
        encoderReady = undefined;
        throw error;
      }
    },
  };
}
