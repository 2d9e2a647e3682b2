/**
 * 8-bit quantisation tables for the edge's JPEGs (engines/image/jpeg-tables.ts): rewritten only
 * when no coefficient at a clamped position is non-zero (engines/image/jpeg-coefficients.ts reads
 * that from the scans), checked against decoding both files, on images built in code and encoded
 * by the edge's MozJPEG.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { loadNodeCodecs } from "../../engines/image/codecs.node.ts";
import { convertImage } from "../../engines/image/convert-image.ts";
import type { ImageCodecs, RgbaImage } from "../../engines/image/image-codecs.ts";
import { jpegCoefficients } from "../../engines/image/jpeg-coefficients.ts";
import { clampChangesNothing, clampedTables, withEightBitTables } from "../../engines/image/jpeg-tables.ts";

/** Each quantisation table of a JPEG: its precision (0: 8-bit, 1: 16-bit) and largest value. */
function tablesOf(jpeg: Uint8Array): { precision: number; max: number }[] {
  const tables: { precision: number; max: number }[] = [];
  for (let at = 2; jpeg[at + 1] !== 0xda; ) {
    const length = ((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0);
    if (jpeg[at + 1] === 0xdb) {
      for (let p = at + 4; p < at + 2 + length; ) {
        const precision = (jpeg[p] ?? 0) >> 4;
        const values = Array.from({ length: 64 }, (_, i) =>
          precision ? ((jpeg[p + 1 + 2 * i] ?? 0) << 8) | (jpeg[p + 2 + 2 * i] ?? 0) : (jpeg[p + 1 + i] ?? 0),
        );
        tables.push({ precision, max: Math.max(...values) });
        p += precision ? 129 : 65;
      }
    }
    at += 2 + length;
  }
  return tables;
}

/** A smooth diagonal gradient: no energy at the high frequencies the large table values quantise. */
function gradient(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data.set([(x * 255) / width, (y * 255) / height, ((x + y) * 255) / (width + height), 255], i);
    }
  return { width, height, data };
}

/**
 * A one-pixel checkerboard of two greys: the highest frequency, strong enough to survive
 * quantisation, and far enough from black and white that a larger reconstruction is not clipped.
 */
function checkerboard(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const v = (x + y) % 2 ? 228 : 28;
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

/** An image of `width` × `height` whose pixel (x, y) is `colour(x, y)`, opaque. */
function painted(width: number, height: number, colour: (x: number, y: number) => number[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([...colour(x, y), 255], (y * width + x) * 4);
  return { width, height, data };
}

/** Deterministic noise in 0–255. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state & 255;
  };
}

describe("8-bit quantisation tables", () => {
  let codecs: ImageCodecs;
  beforeAll(async () => {
    codecs = await loadNodeCodecs(["jpegEncoder", "jpegDecoder"]);
  });
  const decode = (jpeg: Uint8Array) => codecs.decodeJpeg(jpeg);

  const samePixels = (a: Uint8Array, b: Uint8Array) =>
    Buffer.from(decode(a).data).equals(Buffer.from(decode(b).data));

  it("are written when the 16-bit ones change no pixel: 128 bytes fewer, same image", () => {
    const jpeg = codecs.encodeJpeg(gradient(320, 240), { quality: 35, grayscale: false });
    expect(tablesOf(jpeg).map((table) => table.precision)).toEqual([1, 1]);
    expect(Math.max(...tablesOf(jpeg).map((table) => table.max))).toBeGreaterThan(255);

    const rewritten = withEightBitTables(jpeg);
    expect(tablesOf(rewritten)).toEqual([
      { precision: 0, max: 255 },
      { precision: 0, max: 255 },
    ]);
    expect(rewritten.length).toBe(jpeg.length - 128);
    expect(Buffer.from(decode(rewritten).data).equals(Buffer.from(decode(jpeg).data))).toBe(true);
  });

  it("are not written when the clamp would change pixels", () => {
    const jpeg = codecs.encodeJpeg(checkerboard(64, 64), { quality: 50, grayscale: true });
    const clamped = clampedTables(jpeg);
    expect(clamped).toBeDefined();
    expect(samePixels(clamped ?? jpeg, jpeg)).toBe(false);
    expect(clampChangesNothing(jpeg)).toBe(false);
    expect(withEightBitTables(jpeg)).toBe(jpeg);
  });

  it("are judged from the scans exactly as decoding both files judges them", () => {
    const random = noise(7);
    // Odd sizes leave partial blocks at the edges; 4:2:0 colour and grey have different block grids.
    const images = {
      noise: painted(150, 90, () => [random(), random(), random()]),
      stripes: painted(130, 77, (x) => (x % 2 ? [250, 250, 250] : [5, 5, 5])),
      checker: painted(97, 61, (x, y) => ((x + y) % 2 ? [228, 228, 228] : [28, 28, 28])),
      colourChecker: painted(203, 119, (x, y) => ((x + y) % 2 ? [230, 40, 200] : [20, 220, 60])),
      cornerChecker: painted(256, 128, (x, y) => {
        const v = x > 200 && y > 100 ? ((x + y) % 2 ? 240 : 15) : (x + y) & 255;
        return [v, v, 255 - v];
      }),
    };
    const verdicts = { kept: 0, rewritten: 0 };
    for (const image of Object.values(images))
      for (const grayscale of [false, true])
        for (const quality of [5, 10, 20, 35, 50, 65]) {
          const jpeg = codecs.encodeJpeg(image, { quality, grayscale });
          const clamped = clampedTables(jpeg);
          if (clamped === undefined) continue;
          expect(jpegCoefficients(jpeg)).toBeDefined();
          const verdict = clampChangesNothing(jpeg);
          expect(verdict, `${quality} ${grayscale}`).toBe(samePixels(clamped, jpeg));
          verdicts[verdict ? "rewritten" : "kept"]++;
        }
    // Both answers occur, so neither is given regardless of the scans.
    expect(verdicts.kept).toBeGreaterThanOrEqual(4);
    expect(verdicts.rewritten).toBeGreaterThanOrEqual(20);
  }, 60_000);

  it("are not judged on files the scan reader does not take (baseline, cut short)", async () => {
    const baseline = new Uint8Array(
      await sharp(Buffer.from(gradient(64, 64).data), { raw: { width: 64, height: 64, channels: 4 } })
        .jpeg({ quality: 30 })
        .toBuffer(),
    );
    expect(jpegCoefficients(baseline)).toBeUndefined();
    const progressive = codecs.encodeJpeg(gradient(320, 240), { quality: 35, grayscale: false });
    expect(jpegCoefficients(progressive)).toBeDefined();
    const cut = progressive.subarray(0, progressive.length - 40);
    expect(jpegCoefficients(cut)).toBeUndefined();
    expect(withEightBitTables(cut)).toBe(cut);
  });

  it("leave 8-bit tables and unreadable headers alone", () => {
    const high = codecs.encodeJpeg(gradient(64, 64), { quality: 90, grayscale: false });
    expect(tablesOf(high).every((table) => table.precision === 0)).toBe(true);
    expect(clampedTables(high)).toBeUndefined();
    expect(clampedTables(high.subarray(0, 30))).toBeUndefined();
    expect(clampedTables(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
  });

  it("come out of the edge's conversion at low quality at any size it takes, as sharp's libjpeg writes them", async () => {
    // 2.2 MP: above the 1 MP up to which the tables used to be checked by decoding.
    const source = gradient(1800, 1200);
    const png = new Uint8Array(
      await sharp(Buffer.from(source.data), { raw: { width: 1800, height: 1200, channels: 4 } })
        .png()
        .toBuffer(),
    );
    const settings = { target: "jpeg" as const, quality: 35, maxPixels: Number.POSITIVE_INFINITY };
    const ours = (await convertImage(png, settings, loadNodeCodecs, () => {})).bytes;
    const theirs = await sharp(png)
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 35, mozjpeg: true })
      .toBuffer();
    expect(tablesOf(ours).every((table) => table.precision === 0)).toBe(true);
    expect(ours.length).toBeLessThanOrEqual(theirs.length);
  }, 60_000);
});
