/**
 * The same codecs as engines/image/codecs.ts for Node (tests, benchmarks): the .wasm files are
 * read from node_modules and compiled here, since Node cannot import .wasm as a module.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type CodecModules, type ImageCodecs, loadImageCodecs } from "./image-codecs.ts";

const require = createRequire(import.meta.url);
let compiled: Promise<CodecModules> | undefined;

async function compile(file: string): Promise<WebAssembly.Module> {
  return WebAssembly.compile(await readFile(require.resolve(file)));
}

async function compileAll(): Promise<CodecModules> {
  const [png, jpegEncoder] = await Promise.all([
    compile("@jsquash/png/codec/pkg/squoosh_png_bg.wasm"),
    compile("@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm"),
  ]);
  return { png, jpegEncoder };
}

export async function loadNodeCodecs(): Promise<ImageCodecs> {
  compiled ??= compileAll();
  return loadImageCodecs(await compiled);
}
