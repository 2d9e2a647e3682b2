/**
 * The same codecs as engines/image/codecs.ts for Node (tests, benchmarks): the .wasm files are
 * read from node_modules and compiled here, since Node cannot import .wasm as a module.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type CodecModules, type ImageCodecs, loadImageCodecs, type WasmCodec } from "./image-codecs.ts";

const require = createRequire(import.meta.url);
let compiled: Promise<CodecModules> | undefined;

async function compile(file: string): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(require.resolve(file)));
}

async function compileAll(): Promise<CodecModules> {
  const [jpegEncoder, jpegDecoder, webpDecoder, webpEncoder] = await Promise.all([
    compile("@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm"),
    compile("@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm"),
    compile("@jsquash/webp/codec/dec/webp_dec.wasm"),
    compile("@jsquash/webp/codec/enc/webp_enc_simd.wasm"),
  ]);
  return { jpegEncoder, jpegDecoder, webpDecoder, webpEncoder };
}

/** The codecs, instantiating only the WASM ones in `wanted` (all by default). */
export async function loadNodeCodecs(wanted?: readonly WasmCodec[]): Promise<ImageCodecs> {
  compiled ??= compileAll();
  return loadImageCodecs(await compiled, wanted);
}
