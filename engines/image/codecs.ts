/**
 * The edge image codecs for workerd: the .wasm files are imported as modules, which wrangler's
 * bundler and the Workers vitest plugin turn into precompiled `WebAssembly.Module`s.
 */
import jpegDecoderWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import jpegEncoderWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm";
import webpDecoderWasm from "@jsquash/webp/codec/dec/webp_dec.wasm";
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm";
import { type ImageCodecs, loadImageCodecs, type WasmCodec } from "./image-codecs.ts";

const MODULES = {
  jpegEncoder: jpegEncoderWasm,
  jpegDecoder: jpegDecoderWasm,
  webpDecoder: webpDecoderWasm,
  webpEncoder: webpEncoderWasm,
};

/** The codecs, instantiating only the WASM ones in `wanted` (all by default). */
export function loadEdgeCodecs(wanted?: readonly WasmCodec[]): Promise<ImageCodecs> {
  return loadImageCodecs(MODULES, wanted);
}
