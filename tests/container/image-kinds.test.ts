/**
 * HEIC, AVIF, TIFF (16-bit, multi-page, rotated) and BMP through every image input in the
 * container: HEIC to JPG and the other converters, Images to PDF and Compress image. Outputs are
 * decoded again and checked for format, size, orientation, colour (SSIM and channel means against
 * sharp's own rendering of the source) and page count; undecodable images name their format.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { compressImage } from "../../engines/image/compress-image.ts";
import { joinTiffPages } from "../../engines/image/tiff-join.ts";
import { imagesToPdf } from "../../engines/pdf/images-to-pdf.ts";
import type { EngineInput } from "../../engines/types.ts";
import heicToJpg from "../../tools/heic-to-jpg/container.ts";
import jpgToPng from "../../tools/jpg-to-png/container.ts";
import pngToJpg from "../../tools/png-to-jpg/container.ts";
import { ssim } from "../support/ssim.ts";
import { openPdf } from "./fixtures.ts";
import { imageFixtures } from "./image-fixtures.ts";
import {
  bmpFixture,
  heicOf,
  heifEnc,
  kindFixtures,
  multiSizeTiff,
  PAGE_COLOURS,
} from "./image-kind-fixtures.ts";

type Kind = EngineInput["kind"];
const input = (kind: Kind, bytes: Uint8Array, name = `photo.${kind}`): EngineInput => ({ name, kind, bytes });
const noProgress = () => {};
const HEIC = heifEnc();

/** Decoded RGB of `bytes`, upright, flattened on white, at `width`×`height`. */
async function rgb(bytes: Uint8Array, width: number, height: number) {
  return sharp(bytes)
    .rotate()
    .flatten({ background: "#fff" })
    .toColourspace("srgb")
    .resize({ width, height, fit: "fill" })
    .raw()
    .toBuffer();
}

/** SSIM of an output against a reference image (both decoded by sharp), at the output's size. */
async function similarity(output: Uint8Array, reference: Uint8Array): Promise<number> {
  const { width = 0, height = 0 } = await sharp(output).metadata();
  const size = { width, height, channels: 3 as const };
  return ssim(
    { ...size, data: await rgb(output, width, height) },
    { ...size, data: await rgb(reference, width, height) },
  );
}

function channelMeans(data: Uint8Array, channels = 3): number[] {
  const sums = Array(channels).fill(0) as number[];
  for (let i = 0; i < data.length; i++) sums[i % channels] = (sums[i % channels] ?? 0) + (data[i] ?? 0);
  return sums.map((sum) => sum / (data.length / channels));
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error("no error"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const sources: Record<string, Uint8Array> = {};

beforeAll(async () => {
  sources.png = await imageFixtures.photoPng(240, 160);
  sources.p3Png = await imageFixtures.p3Png(240, 160);
  sources.alphaPng = await imageFixtures.alphaPng(256, 160);
  if (HEIC) {
    sources.heic = heicOf(sources.png, 90);
    sources.p3Heic = heicOf(sources.p3Png, 90);
    sources.alphaHeic = heicOf(sources.alphaPng, 90);
  }
}, 120_000);

describe("HEIC to JPG", () => {
  it.skipIf(!HEIC)("makes a JPG of the HEIC's size that looks like the photo", async () => {
    const output = await heicToJpg(
      [input("heic", sources.heic ?? new Uint8Array())],
      { quality: "high" },
      noProgress,
    );
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", 240, 160]);
    expect(await similarity(output.bytes, sources.png ?? new Uint8Array())).toBeGreaterThan(0.9);
    expect(output.facts).toMatchObject({ width: 240, height: 160 });
  });

  it.skipIf(!HEIC)(
    "converts a Display P3 HEIC to sRGB through its ICC profile, as for a P3 PNG",
    async () => {
      const output = await heicToJpg(
        [input("heic", sources.p3Heic ?? new Uint8Array())],
        { quality: "high" },
        noProgress,
      );
      const reference = await rgb(sources.p3Png ?? new Uint8Array(), 240, 160);
      const made = await rgb(output.bytes, 240, 160);
      const untransformed = await sharp(sources.p3Png)
        .ensureAlpha()
        .removeAlpha()
        .withMetadata()
        .raw()
        .toBuffer();
      const [ours, theirs, raw] = [channelMeans(made), channelMeans(reference), channelMeans(untransformed)];
      // Within 3 levels of sharp's own P3 → sRGB conversion, and visibly away from ignoring the profile.
      for (let c = 0; c < 3; c++) expect(Math.abs((ours[c] ?? 0) - (theirs[c] ?? 0))).toBeLessThan(3);
      expect(Math.max(...ours.map((v, c) => Math.abs(v - (raw[c] ?? 0))))).toBeGreaterThan(3);
    },
  );

  it.skipIf(!HEIC)("flattens a HEIC's alpha onto white", async () => {
    const output = await heicToJpg(
      [input("heic", sources.alphaHeic ?? new Uint8Array())],
      { quality: "high" },
      noProgress,
    );
    const { data } = await sharp(output.bytes).raw().toBuffer({ resolveWithObject: true });
    // The left column was fully transparent: white now.
    for (const value of data.subarray(0, 3)) expect(value).toBeGreaterThan(235);
  });

  it("takes AVIF, TIFF and BMP as well, turning the AVIF irot and the TIFF orientation tag", async () => {
    const cases: [Kind, Uint8Array, number, number][] = [
      ["avif", await kindFixtures.rotatedAvif(), 160, 240],
      ["tiff", await kindFixtures.rotatedTiff(), 160, 240],
      ["tiff", kindFixtures.tiff16(), 240, 160],
      ["bmp", bmpFixture({ bitCount: 24, header: 124 }, 240, 160).bytes, 240, 160],
    ];
    for (const [kind, bytes, width, height] of cases) {
      const output = await heicToJpg([input(kind, bytes)], { quality: "high" }, noProgress);
      const metadata = await sharp(output.bytes).metadata();
      expect([kind, metadata.format, metadata.width, metadata.height, metadata.orientation ?? 1]).toEqual([
        kind,
        "jpeg",
        width,
        height,
        1,
      ]);
      const reference =
        kind === "bmp"
          ? (sources.png ?? new Uint8Array())
          : new Uint8Array(await sharp(bytes).rotate().png().toBuffer());
      expect(await similarity(output.bytes, reference)).toBeGreaterThan(0.9);
    }
  });

  it("reads a 16-bit TIFF at full range (not its high bytes as noise)", async () => {
    const output = await pngToJpg([input("tiff", kindFixtures.tiff16())], { quality: "high" }, noProgress);
    expect(await similarity(output.bytes, sources.png ?? new Uint8Array())).toBeGreaterThan(0.95);
  });

  it("keeps a BMP's pixels exactly when the target is PNG", async () => {
    const { bytes, rgba } = bmpFixture({ bitCount: 32, header: 124, bitfields: true, topDown: true }, 64, 48);
    const output = await jpgToPng([input("bmp", bytes)], { quality: "medium" }, noProgress);
    const decoded = await sharp(output.bytes).ensureAlpha().raw().toBuffer();
    expect(Buffer.from(decoded).equals(Buffer.from(rgba))).toBe(true);
  });
});

describe("undecodable images name their format", () => {
  it.skipIf(!HEIC)("a HEIC cut after its header", async () => {
    const heic = sources.heic ?? new Uint8Array();
    const error = await failure(
      heicToJpg([input("heic", heic.subarray(0, heic.length - 400))], { quality: "medium" }, noProgress),
    );
    expect([error.code, error.context?.image_format]).toEqual(["IMAGE_DAMAGED", "HEIC"]);
  });

  it("an AVIF whose picture data is damaged, a BMP with an embedded JPEG, a TIFF cut short", async () => {
    const avif = (await kindFixtures.avif()).slice();
    avif.fill(0x55, avif.length - 300);
    const bmp = bmpFixture({ bitCount: 24, header: 40 }).bytes;
    new DataView(bmp.buffer).setUint32(30, 4, true);
    const tiff = await kindFixtures.tiff();
    const cases: [Kind, Uint8Array, string][] = [
      ["avif", avif, "AVIF"],
      ["bmp", bmp, "BMP"],
      ["tiff", tiff.subarray(0, tiff.length / 2), "TIFF"],
    ];
    for (const [kind, bytes, format] of cases) {
      const error = await failure(heicToJpg([input(kind, bytes)], { quality: "medium" }, noProgress));
      expect([kind, error.code, error.context?.image_format]).toEqual([kind, "IMAGE_DAMAGED", format]);
    }
  });
});

describe("Images to PDF", () => {
  const options = { margin: "none", orientation: "portrait" } as const;

  function centreColour(doc: mupdf.PDFDocument, index: number): number[] {
    const page = doc.loadPage(index);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(0.25, 0.25), mupdf.ColorSpace.DeviceRGB, false);
    const [w, h] = [pixmap.getWidth(), pixmap.getHeight()];
    const at = (Math.floor(h / 2) * w + Math.floor(w / 2)) * 3;
    const colour = [...pixmap.getPixels().slice(at, at + 3)];
    pixmap.destroy();
    return colour;
  }

  it("adds every page of a multi-page TIFF, in order", async () => {
    const tiff = await kindFixtures.multiPageTiff();
    const output = await imagesToPdf([input("tiff", tiff)], options, noProgress);
    const doc = openPdf(output.bytes);
    expect(doc.countPages()).toBe(PAGE_COLOURS.length);
    expect(output.facts).toMatchObject({ pages: PAGE_COLOURS.length, images: 1 });
    const expected = PAGE_COLOURS.map((hex) =>
      [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)),
    );
    for (const [index, colour] of expected.entries()) {
      const got = centreColour(doc, index);
      for (let c = 0; c < 3; c++) expect(Math.abs((got[c] ?? 0) - (colour[c] ?? 0))).toBeLessThan(8);
    }
  });

  it("puts HEIC, AVIF, 16-bit TIFF and BMP on pages of their own, upright", async () => {
    const inputs = [
      input("avif", await kindFixtures.rotatedAvif()),
      input("tiff", kindFixtures.tiff16()),
      input("bmp", bmpFixture({ bitCount: 8, header: 40 }, 90, 60).bytes),
      ...(HEIC ? [input("heic", sources.heic ?? new Uint8Array())] : []),
    ];
    const output = await imagesToPdf(inputs, options, noProgress);
    const doc = openPdf(output.bytes);
    expect(doc.countPages()).toBe(inputs.length);
    // The rotated AVIF (240×160 stored, quarter turn) is drawn taller than wide on a portrait page.
    const images = doc.loadPage(0).toStructuredText("preserve-images").asJSON();
    const block = (
      JSON.parse(images) as { blocks: { type: string; bbox: { w: number; h: number } }[] }
    ).blocks.find((b) => b.type === "image");
    expect(block && block.bbox.h / block.bbox.w).toBeCloseTo(1.5, 1);
  });

  it("refuses a damaged BMP naming its file and format", async () => {
    const bmp = bmpFixture({ bitCount: 24, header: 40 }).bytes;
    const error = await failure(
      imagesToPdf(
        [input("png", sources.png ?? new Uint8Array()), input("bmp", bmp.subarray(0, 200))],
        options,
        noProgress,
      ),
    );
    expect([error.code, error.context?.file_index, error.context?.image_format]).toEqual([
      "IMAGE_DAMAGED",
      1,
      "BMP",
    ]);
  });
});

describe("Compress image", () => {
  it("keeps AVIF as AVIF and TIFF as TIFF, every page of a multi-page TIFF included", async () => {
    const big = await sharp(await imageFixtures.photoPng(480, 320))
      .avif({ quality: 95 })
      .toBuffer();
    const avif = await compressImage([input("avif", new Uint8Array(big))], { quality: "low" }, noProgress);
    expect(avif.kind).toBe("avif");
    expect((await sharp(avif.bytes).metadata()).format).toBe("heif");
    expect(avif.bytes.length).toBeLessThan(big.length);

    const tiff16 = kindFixtures.tiff16();
    const tiff = await compressImage([input("tiff", tiff16)], { quality: "medium" }, noProgress);
    expect([tiff.kind, tiff.name]).toEqual(["tiff", "photo-compressed.tiff"]);
    expect(await similarity(tiff.bytes, sources.png ?? new Uint8Array())).toBeGreaterThan(0.9);

    const multi = await sharp(await kindFixtures.multiPageTiff(), { pages: -1 })
      .tiff({ compression: "none" })
      .toBuffer();
    expect((await sharp(multi).metadata()).pages).toBe(PAGE_COLOURS.length);
    const compressed = await compressImage(
      [input("tiff", new Uint8Array(multi))],
      { quality: "medium" },
      noProgress,
    );
    expect((await sharp(compressed.bytes).metadata()).pages).toBe(PAGE_COLOURS.length);
  });

  it("compresses a multi-page TIFF whose pages differ in size, each page kept with its size and colours", async () => {
    // A portrait page, a landscape page and a small one: a scan of mixed paper.
    const sizes = [
      [300, 420],
      [420, 300],
      [150, 150],
    ] as const;
    const colours = [
      [200, 40, 40],
      [40, 160, 60],
      [40, 60, 190],
    ] as const;
    const tiff = multiSizeTiff(
      sizes.map(([width, height], page) => ({
        width,
        height,
        paint: (x, y) => (colours[page] ?? [0, 0, 0]).map((v) => v + ((x * 7 + y * 13) % 23)),
      })),
    );
    const output = await compressImage([input("tiff", tiff, "scan.tiff")], { quality: "medium" }, noProgress);
    expect(output.kind).toBe("tiff");
    expect(output.bytes.length).toBeLessThan(tiff.length);
    expect((await sharp(output.bytes).metadata()).pages).toBe(sizes.length);
    for (const [page, [width, height]] of sizes.entries()) {
      const { data, info } = await sharp(output.bytes, { page }).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height], `page ${page}`).toEqual([width, height]);
      const mean = [0, 1, 2].map((c) => {
        let sum = 0;
        for (let i = c; i < data.length; i += info.channels) sum += data[i] ?? 0;
        return sum / (data.length / info.channels);
      });
      mean.forEach((value, c) => {
        expect(Math.abs(value - ((colours[page] ?? [])[c] ?? 0) - 11), `page ${page}`).toBeLessThan(6);
      });
    }
  });

  it("compresses a multi-size TIFF whose first page is turned (Orientation 6) like one of one size", async () => {
    const pages = [
      { width: 300, height: 420, orientation: 6 },
      { width: 150, height: 150 },
    ].map((page) => ({ ...page, paint: (x: number, y: number) => [120 + ((x * 7 + y * 13) % 23), 90, 60] }));
    const tiff = multiSizeTiff(pages);
    const output = await compressImage([input("tiff", tiff, "scan.tiff")], { quality: "medium" }, noProgress);
    expect(output.kind).toBe("tiff");
    expect((await sharp(output.bytes).metadata()).pages).toBe(2);
    const sizes = await Promise.all(
      [0, 1].map(async (page) => {
        const { width, height } = await sharp(output.bytes, { page }).metadata();
        return [width, height];
      }),
    );
    expect(sizes).toEqual([
      [output.facts.width, output.facts.height],
      [150, 150],
    ]);
    // Kept as stored, turned by its tag (as a TIFF of pages of one size is).
    expect(sizes[0]).toEqual([300, 420]);
    expect((await sharp(output.bytes, { page: 0 }).metadata()).orientation).toBe(6);
  });

  it("refuses a TIFF of pages of several sizes whose pages together exceed the pixel limit", async () => {
    // A small first page, then two of 36 M pixels each: the first page's size times 3 is far under.
    const page = async (side: number) =>
      Uint8Array.from(
        await sharp({ create: { width: side, height: side, channels: 3, background: [90, 120, 150] } })
          .tiff({ compression: "deflate" })
          .toBuffer(),
      );
    const tiff = joinTiffPages([await page(10), await page(6000), await page(6000)]);
    await expect(
      compressImage([input("tiff", tiff, "scan.tiff")], { quality: "medium" }, noProgress),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
  });

  it("writes a BMP as JPG (PNG when it has alpha) and says so", async () => {
    const photoBmp = bmpFixture({ bitCount: 24, header: 40 }, 240, 160).bytes;
    const jpeg = await compressImage([input("bmp", photoBmp, "scan.bmp")], { quality: "medium" }, noProgress);
    expect([jpeg.kind, jpeg.name]).toEqual(["jpeg", "scan-compressed.jpg"]);
    expect(jpeg.facts).toMatchObject({ formatFrom: "BMP", formatTo: "JPG", width: 240, height: 160 });
    const alphaBmp = bmpFixture({ bitCount: 32, header: 124, bitfields: true }, 240, 160).bytes;
    const png = await compressImage([input("bmp", alphaBmp, "icon.bmp")], { quality: "medium" }, noProgress);
    expect([png.kind, png.name]).toEqual(["png", "icon-compressed.png"]);
    expect((await sharp(png.bytes).metadata()).hasAlpha).toBe(true);
  });

  it.skipIf(!HEIC)("writes a HEIC as JPG, or returns the original when the JPG would be bigger", async () => {
    const heic = sources.heic ?? new Uint8Array();
    const output = await compressImage(
      [input("heic", heic, "IMG_0001.HEIC")],
      { quality: "low" },
      noProgress,
    );
    if (output.facts.alreadyOptimized === true) {
      expect([output.kind, output.bytes]).toEqual(["heic", heic]);
    } else {
      expect([output.kind, output.name, output.facts.formatFrom]).toEqual([
        "jpeg",
        "IMG_0001-compressed.jpg",
        "HEIC",
      ]);
    }
  });
});
