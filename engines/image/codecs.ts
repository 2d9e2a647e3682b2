/**
 * The edge image codecs for workerd: the .wasm files are imported as modules, which wrangler's
 * bundler and the Workers vitest plugin turn into precompiled `WebAssembly.Module`s.
 */
import jpegEncoderWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import pngWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm";
import { type ImageCodecs, loadImageCodecs } from "./image-codecs.ts";

export function loadEdgeCodecs(): Promise<ImageCodecs> {
  return loadImageCodecs({ png: pngWasm, jpegEncoder: jpegEncoderWasm });
}
