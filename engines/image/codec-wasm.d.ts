// The codec .wasm files as the bundlers deliver them: precompiled modules. Their packages ship
// .wasm.d.ts files describing the instance exports instead, which would shadow wasm.d.ts.
declare module "@jsquash/png/codec/pkg/squoosh_png_bg.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
