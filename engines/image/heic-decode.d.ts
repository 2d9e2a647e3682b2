/** Types of heic-decode (libheif compiled to WASM, HEVC decoding by libde265), which ships none. */
declare module "heic-decode" {
  /** The primary image, with HEIF's rotation and mirroring applied, as 8-bit RGBA. */
  export default function decode(input: {
    buffer: Uint8Array;
  }): Promise<{ width: number; height: number; data: Uint8ClampedArray }>;
}
