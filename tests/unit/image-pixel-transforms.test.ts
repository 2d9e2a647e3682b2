/** Flattening, orientation and grey detection on small labelled RGBA buffers. */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Orientation } from "../../engines/image/exif-orientation.ts";
import {
  applyOrientation,
  flattenOntoWhite,
  isNeutralGrey,
  orientedSize,
} from "../../engines/image/pixel-transforms.ts";

/** A 3×2 image whose pixel i (row-major) has red = i: 0 1 2 / 3 4 5. */
function labelled(offset = 0) {
  const buffer = new Uint8Array(offset + 24);
  const data = buffer.subarray(offset);
  for (let i = 0; i < 6; i++) data.set([i, 10, 20, 255], i * 4);
  return { width: 3, height: 2, data };
}

/** Labels of the displayed image, row by row. */
const DISPLAYED: Record<Orientation, number[][]> = {
  1: [
    [0, 1, 2],
    [3, 4, 5],
  ],
  2: [
    [2, 1, 0],
    [5, 4, 3],
  ],
  3: [
    [5, 4, 3],
    [2, 1, 0],
  ],
  4: [
    [3, 4, 5],
    [0, 1, 2],
  ],
  5: [
    [0, 3],
    [1, 4],
    [2, 5],
  ],
  6: [
    [3, 0],
    [4, 1],
    [5, 2],
  ],
  7: [
    [5, 2],
    [4, 1],
    [3, 0],
  ],
  8: [
    [2, 5],
    [1, 4],
    [0, 3],
  ],
};

function rows(image: { width: number; height: number; data: ArrayLike<number> }): number[][] {
  return Array.from({ length: image.height }, (_, y) =>
    Array.from({ length: image.width }, (_, x) => image.data[(y * image.width + x) * 4] ?? -1),
  );
}

describe("applyOrientation", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8] as const)("turns orientation %i into the displayed image", (o) => {
    const out = applyOrientation(labelled(), o);
    expect(rows(out)).toEqual(DISPLAYED[o]);
    expect([out.width, out.height]).toEqual(orientedSize(3, 2, o));
    // The other channels travel with their pixel.
    expect(Array.from(out.data.subarray(4, 8)).slice(1)).toEqual([10, 20, 255]);
  });

  it("handles pixel buffers that do not start on a 4-byte boundary", () => {
    expect(rows(applyOrientation(labelled(1), 6))).toEqual(DISPLAYED[6]);
    expect(rows(applyOrientation(labelled(3), 2))).toEqual(DISPLAYED[2]);
  });
});

describe("flattenOntoWhite", () => {
  it("blends each pixel over white by its alpha and makes it opaque", () => {
    const data = new Uint8Array([0, 0, 0, 0, 200, 100, 50, 255, 0, 0, 255, 128, 255, 0, 0, 64]);
    expect(flattenOntoWhite(data)).toBe(true);
    expect(Array.from(data)).toEqual([
      255, 255, 255, 255, 200, 100, 50, 255, 127, 127, 255, 255, 255, 191, 191, 255,
    ]);
  });

  it("gives the pixels sharp's flatten gives (the container path), to the last level", async () => {
    const width = 64;
    const height = 64;
    const data = new Uint8Array(width * height * 4).map((_, i) => (i * 7919 + (i >> 2) * 104729) % 256);
    const theirs = await sharp(Buffer.from(data), { raw: { width, height, channels: 4 } })
      .flatten({ background: "#ffffff" })
      .raw()
      .toBuffer();
    const ours = new Uint8Array(data);
    flattenOntoWhite(ours);
    expect(Array.from(ours.filter((_, i) => i % 4 !== 3))).toEqual(Array.from(theirs));
    const pixel = new Uint8Array([1, 1, 1, 128]);
    flattenOntoWhite(pixel);
    expect(Array.from(pixel)).toEqual([127, 127, 127, 255]);
  });

  it("leaves opaque images untouched and says so", () => {
    const data = new Uint8Array([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(flattenOntoWhite(data)).toBe(false);
    expect(Array.from(data)).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
  });
});

describe("isNeutralGrey", () => {
  it("is true only when every pixel has equal red, green and blue", () => {
    expect(isNeutralGrey(new Uint8Array([0, 0, 0, 255, 90, 90, 90, 7]))).toBe(true);
    expect(isNeutralGrey(new Uint8Array([0, 0, 0, 255, 90, 90, 91, 255]))).toBe(false);
  });
});
