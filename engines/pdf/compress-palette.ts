import type * as mupdf from "mupdf";

/** A palette as the decoded pixels show it: each index's colour, and whether any pixel uses it. */
export interface Palette {
  readonly colours: Uint8Array;
  readonly used: readonly boolean[];
}

/**
 * The colours of an Indexed image as decoded to grey or RGB (`pixels`, `channels` bytes a pixel),
 * read by pairing each stored index with its decoded pixel: whatever the palette's base (RGB, CMYK,
 * a spot colour or DeviceN), it gives the colour each index shows. Null when the image is not
 * Indexed or its `samples` (the decoded stream) are not all there.
 */
export function indexedPalette(
  image: mupdf.PDFObject,
  samples: Uint8Array,
  pixels: Uint8Array,
  channels: number,
): Palette | null {
  const space = image.get("ColorSpace");
  if (!space.isArray() || space.length < 4 || space.get(0).asName() !== "Indexed") return null;
  const entries = space.get(2).asNumber() + 1;
  const bits = image.get("BitsPerComponent").asNumber();
  const width = image.get("Width").asNumber();
  const height = image.get("Height").asNumber();
  if (!Number.isInteger(entries) || entries < 1 || entries > 256 || ![1, 2, 4, 8].includes(bits)) return null;
  const rowBytes = Math.ceil((width * bits) / 8);
  if (samples.length < rowBytes * height || pixels.length < width * height * channels) return null;
  const colours = new Uint8Array(entries * channels);
  const used = new Array<boolean>(entries).fill(false);
  const mask = (1 << bits) - 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = x * bits;
      const byte = samples[y * rowBytes + (bit >> 3)] ?? 0;
      const index = (byte >> (8 - bits - (bit & 7))) & mask;
      if (index >= entries || used[index]) continue;
      used[index] = true;
      const at = (y * width + x) * channels;
      colours.set(pixels.subarray(at, at + channels), index * channels);
    }
  }
  return { colours, used };
}

/**
 * Maps each pixel (`channels` bytes) to the index of the nearest palette colour (squared distance),
 * so a resampled Indexed image is stored again as one byte a pixel in its own palette (spot colours
 * included) instead of three bytes of RGB. Resampling blends neighbours into colours the palette
 * may not have: each takes the closest colour the image used.
 */
export function toPaletteIndices(pixels: Uint8Array, channels: number, palette: Palette): Uint8Array {
  const { colours, used } = palette;
  const entries = used.length;
  const indices = new Uint8Array(pixels.length / channels);
  const nearest = new Map<number, number>();
  for (let p = 0; p < indices.length; p++) {
    const i = p * channels;
    let key = 0;
    for (let c = 0; c < channels; c++) key = key * 256 + (pixels[i + c] ?? 0);
    let index = nearest.get(key);
    if (index === undefined) {
      let best = Number.POSITIVE_INFINITY;
      index = 0;
      for (let entry = 0; entry < entries; entry++) {
        if (!used[entry]) continue;
        let distance = 0;
        for (let c = 0; c < channels; c++) {
          const difference = (pixels[i + c] ?? 0) - (colours[entry * channels + c] ?? 0);
          distance += difference * difference;
        }
        if (distance < best) {
          best = distance;
          index = entry;
        }
      }
      nearest.set(key, index);
    }
    indices[p] = index;
  }
  return indices;
}
