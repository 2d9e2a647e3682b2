/**
 * One behaviour at any size: the same images through the edge path (WASM codecs, run here in Node
 * with the same modules) and the container path (sharp) give outputs of the same type, size and
 * channel layout, SSIM ≥ 0.99 between them, bytes within 5 %, and the same facts. Plus the
 * behaviour itself: orientation against a rotated reference, alpha flattened onto white, CMYK and
 * Display P3 to sRGB with low colour error, animations give their first frame.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { fitsEdgeBudget } from "../../engines/edge-budget.ts";
import { loadNodeCodecs } from "../../engines/image/codecs.node.ts";
import { compressImage } from "../../engines/image/compress-image.ts";
import type { ImageTarget } from "../../engines/image/conversion-plan.ts";
import { convertImage } from "../../engines/image/convert-image.ts";
import type { ImageKind } from "../../engines/image/image-info.ts";
import { sharpConvertImage } from "../../engines/image/sharp-convert-image.ts";
import type { EngineOutput } from "../../engines/types.ts";
import { ssim } from "../support/ssim.ts";
import { FRAME_COLOURS, imageFixtures, photoPixels } from "./image-fixtures.ts";

const QUALITY = 85;
const noProgress = () => {};

/** One conversion path: the edge's (WASM codecs) or the container's (sharp). */
type ConversionPath = (
  bytes: Uint8Array,
  target: ImageTarget,
  sources?: readonly ImageKind[],
  quality?: number,
) => Promise<EngineOutput>;

const edge: ConversionPath = (bytes, target, sources, quality = QUALITY) =>
  convertImage(bytes, { target, quality, maxPixels: 64e6, sources }, loadNodeCodecs, noProgress);

const container: ConversionPath = (bytes, target, sources, quality = QUALITY) =>
  sharpConvertImage(bytes, { target, quality, sources }, noProgress);

async function decoded(bytes: Uint8Array) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const metadata = await sharp(bytes).metadata();
  return { data, width: info.width, height: info.height, channels: info.channels as 1 | 3 | 4, metadata };
}

/** Pixel (x, y) of a decoded image as RGB (grey repeated). */
function rgbAt(image: Awaited<ReturnType<typeof decoded>>, x: number, y: number): number[] {
  const at = (y * image.width + x) * image.channels;
  const px = [...image.data.subarray(at, at + image.channels)];
  return image.channels < 3 ? [px[0] ?? 0, px[0] ?? 0, px[0] ?? 0] : px.slice(0, 3);
}

function expectNear(actual: readonly number[], expected: readonly number[], tolerance: number): void {
  const off = Math.max(...actual.map((v, c) => Math.abs(v - (expected[c] ?? 0))));
  expect(off, `got ${actual}, expected ${expected}`).toBeLessThan(tolerance);
}

const cases: [string, () => Promise<Uint8Array>, ImageTarget][] = [
  ["photo-like RGB PNG → JPEG", () => imageFixtures.photoPng(), "jpeg"],
  ["photo-like RGB PNG → PNG", () => imageFixtures.photoPng(), "png"],
  ["photo-like RGB PNG → WebP", () => imageFixtures.photoPng(), "webp"],
  ["photo-like JPEG → PNG", () => imageFixtures.photoJpeg(), "png"],
  ["photo-like WebP → JPEG", () => imageFixtures.photoWebp(), "jpeg"],
  ["WebP with alpha → JPEG", () => imageFixtures.alphaWebp(), "jpeg"],
  ["grey PNG → JPEG", () => imageFixtures.greyPng(), "jpeg"],
  ["grey JPEG → PNG", () => imageFixtures.greyJpeg(), "png"],
  ["grey+alpha PNG → JPEG", () => imageFixtures.greyAlphaPng(), "jpeg"],
  ["grey+alpha PNG → PNG", () => imageFixtures.greyAlphaPng(), "png"],
  ["RGBA PNG → JPEG", () => imageFixtures.alphaPng(), "jpeg"],
  ["palette PNG → JPEG", () => imageFixtures.palettePng(), "jpeg"],
  ["16-bit PNG → JPEG", () => imageFixtures.png16(), "jpeg"],
  ["EXIF-rotated JPEG → PNG", () => imageFixtures.rotatedJpeg(), "png"],
  ["animated WebP → JPEG", () => imageFixtures.animatedWebp(), "jpeg"],
];

describe("edge and container agree", () => {
  it.each(cases)("%s", async (_name, build, target) => {
    const input = await build();
    const [a, b] = await Promise.all([edge(input, target), container(input, target)]);
    expect(a.facts).toEqual(b.facts);
    const [da, db] = await Promise.all([decoded(a.bytes), decoded(b.bytes)]);
    expect(da.metadata.format).toBe(target);
    expect(db.metadata.format).toBe(target);
    expect([da.width, da.height, da.metadata.channels]).toEqual([db.width, db.height, db.metadata.channels]);
    expect([da.width, da.height]).toEqual([a.facts.width, a.facts.height]);
    expect(da.metadata.exif ?? da.metadata.icc).toBeUndefined();
    expect(db.metadata.exif ?? db.metadata.icc).toBeUndefined();
    expect(ssim(da, db)).toBeGreaterThanOrEqual(0.99);
    const ratio = a.bytes.length / b.bytes.length;
    expect(ratio, `edge ${a.bytes.length} B, container ${b.bytes.length} B`).toBeGreaterThan(0.95);
    expect(ratio, `edge ${a.bytes.length} B, container ${b.bytes.length} B`).toBeLessThan(1.05);
  });
});

describe("edge and container JPEGs agree at every quality", () => {
  // Below about quality 61 MozJPEG's table 3 has steps over 255: sharp (libvips) clamps them to 255
  // and writes 8-bit tables, the edge's encoder (no baseline forcing with progressive scans) keeps
  // them, and its tables are rewritten in 8 bits only where no coefficient at those steps is
  // non-zero (jpeg-tables.ts). Both must give the same picture at about the same size.
  it.each([30, 60, 95])("quality %i: same picture, bytes within 5 percent", async (quality) => {
    const input = await imageFixtures.photoPng();
    const [a, b] = await Promise.all([
      edge(input, "jpeg", undefined, quality),
      container(input, "jpeg", undefined, quality),
    ]);
    const [source, da, db] = await Promise.all([decoded(input), decoded(a.bytes), decoded(b.bytes)]);
    expect(ssim(da, db)).toBeGreaterThanOrEqual(0.99);
    for (const scale of ["viewing", "full"] as const) {
      expect(Math.abs(ssim(source, da, { scale }) - ssim(source, db, { scale }))).toBeLessThan(0.005);
    }
    const ratio = a.bytes.length / b.bytes.length;
    expect(ratio, `edge ${a.bytes.length} B, container ${b.bytes.length} B`).toBeGreaterThan(0.95);
    expect(ratio, `edge ${a.bytes.length} B, container ${b.bytes.length} B`).toBeLessThan(1.05);
  });
});

describe("what both paths do", () => {
  it("keeps grey images grey and colour images sRGB", async () => {
    for (const path of [edge, container]) {
      const channels = async (input: Uint8Array, target: ImageTarget) =>
        (await sharp((await path(input, target)).bytes).metadata()).channels;
      expect(await channels(await imageFixtures.greyPng(), "jpeg")).toBe(1);
      expect(await channels(await imageFixtures.greyJpeg(), "png")).toBe(1);
      expect(await channels(await imageFixtures.greyAlphaPng(), "png")).toBe(2);
      expect(await channels(await imageFixtures.palettePng(), "jpeg")).toBe(3);
      expect(await channels(await imageFixtures.photoJpeg(), "png")).toBe(3);
    }
  });

  it("applies EXIF orientation: the output matches a rotated reference and needs no tag", async () => {
    const input = await imageFixtures.rotatedJpeg(240, 160);
    const reference = await decoded(new Uint8Array(await sharp(input).rotate().png().toBuffer()));
    expect([reference.width, reference.height]).toEqual([160, 240]);
    for (const path of [edge, container]) {
      const output = await path(input, "png");
      expect(output.facts).toMatchObject({ width: 160, height: 240, metadata_removed: true });
      const image = await decoded(output.bytes);
      expect(image.metadata.orientation ?? 1).toBe(1);
      expect(ssim(image, reference)).toBeGreaterThan(0.99);
    }
  });

  it("flattens transparency onto white when the target has no alpha (sampled pixels)", async () => {
    const input = await imageFixtures.alphaPng(256, 160);
    const source = photoPixels(256, 160);
    for (const path of [edge, container]) {
      const image = await decoded((await path(input, "jpeg")).bytes);
      expect(image.channels).toBe(3);
      // Left edge fully transparent: white. Right edge opaque: the photo's colour.
      for (const y of [20, 80, 140]) {
        for (const v of rgbAt(image, 1, y)) expect(v).toBeGreaterThan(245);
        const at = (y * 256 + 254) * 3;
        const expected = [...source.subarray(at, at + 3)];
        expectNear(rgbAt(image, 254, y), expected, 24);
        // Half way: half-blended towards white.
        const mid = (y * 256 + 128) * 3;
        const blend = [0, 1, 2].map((c) => 255 - ((255 - (source[mid + c] ?? 0)) * 128) / 255);
        expectNear(rgbAt(image, 128, y), blend, 24);
      }
    }
  });

  it("converts CMYK and Display P3 images to sRGB in the container, where the edge budget sends them", async () => {
    const reference = { data: photoPixels(240, 160), width: 240, height: 160, channels: 3 as const };
    for (const input of [await imageFixtures.cmykJpeg(), await imageFixtures.p3Png()]) {
      const kind = input[0] === 0xff ? "jpeg" : "png";
      expect(fitsEdgeBudget("png-to-jpg", [{ name: "x", kind, bytes: input }])).toBe(false);
      await expect(edge(input, "jpeg")).rejects.toBeInstanceOf(AppError);
      const image = await decoded((await container(input, "png")).bytes);
      expect(image.channels).toBe(3);
      let error = 0;
      for (let i = 0; i < reference.data.length; i++)
        error += Math.abs((image.data[i] ?? 0) - (reference.data[i] ?? 0));
      // Mean error per sample, after a round trip through the profile (CMYK: ink limits, rendering intent).
      expect(error / reference.data.length).toBeLessThan(kind === "png" ? 2 : 8);
      expect(ssim(image, reference)).toBeGreaterThan(0.95);
    }
  });

  it("gives the first frame of an animation and says so", async () => {
    const red = [255, 0, 0];
    for (const [path, input] of [
      [edge, await imageFixtures.animatedWebp()],
      [container, await imageFixtures.animatedWebp()],
      [container, await imageFixtures.animatedGif()],
    ] as const) {
      const output = await path(input, "jpeg");
      expect(output.facts).toMatchObject({ width: 40, height: 30, first_frame_only: true });
      const image = await decoded(output.bytes);
      expectNear(rgbAt(image, 20, 15), red, 12);
    }
    expect(FRAME_COLOURS[0]).toBe("#ff0000");
  });

  it("says when metadata was removed, and not when there was none", async () => {
    for (const path of [edge, container]) {
      expect((await path(await imageFixtures.rotatedJpeg(), "png")).facts.metadata_removed).toBe(true);
      expect((await path(await imageFixtures.photoPng(), "jpeg")).facts.metadata_removed).toBe(false);
    }
  });

  it("refuses the wrong format naming it in capitals, and oversized images before decoding", async () => {
    for (const path of [edge, container]) {
      const error = await path(await imageFixtures.photoPng(), "png", ["jpeg"]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).toBody()).toMatchObject({
        code: "UNSUPPORTED_FILE_TYPE",
        message: "The file is a PNG image.",
      });
    }
    const big = await imageFixtures.photoPng(64, 64);
    const tooMany = convertImage(
      big,
      { target: "jpeg", quality: 85, maxPixels: 4000 },
      loadNodeCodecs,
      noProgress,
    );
    await expect(tooMany).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
  });

  it("refuses a JPEG cut at half as IMAGE_DAMAGED in JPG to PNG (edge and container) and compress image alike", async () => {
    const baseline = await imageFixtures.photoJpeg(640, 480);
    const progressive = new Uint8Array(
      await sharp(baseline).jpeg({ quality: 92, progressive: true }).toBuffer(),
    );
    for (const whole of [baseline, progressive]) {
      const half = whole.subarray(0, whole.length >> 1);
      const outcomes = await Promise.all(
        [
          edge(half, "png", ["jpeg"]),
          container(half, "png", ["jpeg"]),
          compressImage([{ name: "half.jpg", kind: "jpeg", bytes: half }], { quality: 80 }, noProgress),
        ].map((job) =>
          job.then(
            () => "converted",
            (error: unknown) => (error instanceof AppError ? error.code : String(error)),
          ),
        ),
      );
      expect(outcomes).toEqual(["IMAGE_DAMAGED", "IMAGE_DAMAGED", "IMAGE_DAMAGED"]);
      // The whole file still converts on both paths.
      expect((await edge(whole, "png", ["jpeg"])).bytes.length).toBeGreaterThan(0);
    }
  });
});
