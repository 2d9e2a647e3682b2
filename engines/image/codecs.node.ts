/**
 * The same codecs as engines/image/codecs.ts for Node (tests, benchmarks): the .wasm files are
 * read from node_modules and compiled here, since Node cannot import .wasm as a module.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import {
  type CodecModules,
  type ImageCodecs,
  loadImageCodecs,
  WASM_CODECS,
  type WasmCodec,
} from "./image-codecs.ts";

const require = createRequire(import.meta.url);
const FILES: Record<WasmCodec, string> = {
  jpegEncoder: "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm",
  jpegDecoder: "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm",
  webpDecoder: "@jsquash/webp/codec/dec/webp_dec.wasm",
  webpEncoder: "@jsquash/webp/codec/enc/webp_enc_simd.wasm",
};
const compiled = new Map<WasmCodec, Promise<WebAssembly.Module>>();

/** Compiles a codec's .wasm once per process, when first wanted. */
function compile(name: WasmCodec): Promise<WebAssembly.Module> {
  let module = compiled.get(name);
  if (!module) {
    module = readFile(require.resolve(FILES[name])).then((bytes) => WebAssembly.compile(bytes));
    compiled.set(name, module);
  }
  return module;
}

/** The codecs, instantiating only the WASM ones in `wanted` (all by default). */
export async function loadNodeCodecs(wanted: readonly WasmCodec[] = WASM_CODECS): Promise<ImageCodecs> {
  const modules = Object.fromEntries(
    await Promise.all(wanted.map(async (name) => [name, await compile(name)] as const)),
  ) as unknown as CodecModules;
  return loadImageCodecs(modules, wanted);
}
