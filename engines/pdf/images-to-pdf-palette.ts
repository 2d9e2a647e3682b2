/**
 * Exact palette for decoded images of few colours (GIFs, screenshots, line art, flags): 1 byte per
 * pixel instead of 3, with no colour changed. Photos leave after their first few hundred distinct
 * colours, so trying costs little.
 */

/** PDF's /Indexed colour space holds at most 256 entries with 8-bit indices. */
const MAX_COLOURS = 256;

export interface IndexedPixels {
  /** One palette index per pixel, rows top to bottom. */
  readonly indices: Uint8Array;
  /** RGB triplets, one per index. */
  readonly palette: Uint8Array;
}

/**
 * The pixels of interleaved 8-bit samples (`channels` per pixel, RGB first; a 4th alpha sample is
 * skipped) as palette indices, or undefined when they hold more than 256 colours.
 */
export function indexColours(data: Uint8Array, channels: number): IndexedPixels | undefined {
  const pixels = Math.floor(data.length / channels);
  const indices = new Uint8Array(pixels);
  const slots = new Map<number, number>();
  const palette: number[] = [];
  let lastColour = -1;
  let lastIndex = 0;
  for (let pixel = 0, at = 0; pixel < pixels; pixel++, at += channels) {
    const colour = ((data[at] ?? 0) << 16) | ((data[at + 1] ?? 0) << 8) | (data[at + 2] ?? 0);
    // Neighbouring pixels mostly share a colour: skip the lookup for runs.
    if (colour !== lastColour) {
      let index = slots.get(colour);
      if (index === undefined) {
        if (slots.size === MAX_COLOURS) return undefined;
        index = slots.size;
        slots.set(colour, index);
        palette.push(colour >> 16, (colour >> 8) & 0xff, colour & 0xff);
      }
      lastColour = colour;
      lastIndex = index;
    }
    indices[pixel] = lastIndex;
  }
  return { indices, palette: Uint8Array.from(palette) };
}
