/** Types of wawoff2 (Google's WOFF2 codec compiled to WASM), which ships none. */
declare module "wawoff2" {
  /** The TrueType/OpenType bytes of a WOFF2 font; a view on the codec's memory (copy it). */
  export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
  export function compress(sfnt: Uint8Array): Promise<Uint8Array>;
}
