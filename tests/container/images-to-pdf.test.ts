/**
 * Images to PDF on images built in code: page count and order, byte-identical JPEG streams, EXIF
 * orientation, transparency, CMYK, 16-bit PNG, WebP, GIF, page size, orientation and margins, and
 * damaged input. Pages are checked by what MuPDF renders and by the image streams they hold.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { ImagesToPdfOptions } from "../../engines/pdf/images-to-pdf.ts";
import { imagesToPdf } from "../../engines/pdf/images-to-pdf.ts";
import { A4_POINTS, MARGIN_POINTS } from "../../engines/pdf/images-to-pdf-layout.ts";
import type { EngineInput } from "../../engines/types.ts";
import { ssim } from "../support/ssim.ts";
import { openPdf } from "./fixtures.ts";

type Rgb = readonly [number, number, number];
const DEFAULTS: ImagesToPdfOptions = { margin: "small", orientation: "portrait" };

async function convert(inputs: EngineInput[], options: ImagesToPdfOptions = DEFAULTS) {
  const progress: number[] = [];
  const output = await imagesToPdf(inputs, options, (percent) => progress.push(percent));
  return { ...output, doc: openPdf(output.bytes), progress };
}

const input = (name: string, bytes: Uint8Array | Buffer): EngineInput => ({
  name,
  kind: "png",
  bytes: new Uint8Array(bytes),
});

/** A solid image of one colour. */
function solid(colour: Rgb, width = 120, height = 80) {
  const [r, g, b] = colour;
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } });
}

/** Four quadrants of different colours (top-left, top-right, bottom-left, bottom-right). */
const QUADRANTS: readonly Rgb[] = [
  [220, 20, 20],
  [20, 200, 20],
  [20, 20, 220],
  [230, 210, 20],
];

function quadrantPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const quadrant = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1);
      pixels.set(QUADRANTS[quadrant] ?? [0, 0, 0], (y * width + x) * 3);
    }
  }
  return pixels;
}

/** The drawn image's box on page `index`, in points from the top-left corner, as MuPDF draws it. */
function imageBox(doc: mupdf.PDFDocument, index: number) {
  const matrices: mupdf.Matrix[] = [];
  const device = new mupdf.Device({ fillImage: (_image, ctm) => void matrices.push(ctm) });
  doc.loadPage(index).run(device, mupdf.Matrix.identity);
  device.close();
  expect(matrices).toHaveLength(1);
  const [a, b, c, d, e, f] = matrices[0] ?? [0, 0, 0, 0, 0, 0];
  // The corners of the image's unit square on the page.
  const xs = [e, a + e, c + e, a + c + e];
  const ys = [f, b + f, d + f, b + d + f];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** Page `index` rendered at `dpi` (RGB, no alpha: the page is white where nothing is drawn). */
function render(doc: mupdf.PDFDocument, index: number, dpi = 36) {
  const pixmap = doc
    .loadPage(index)
    .toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
  const image = { width: pixmap.getWidth(), data: pixmap.getPixels().slice(), scale: dpi / 72 };
  pixmap.destroy();
  return image;
}

/** The rendered colour at a point given in points (top-left origin), averaged over 3×3 pixels. */
function colourAt(page: ReturnType<typeof render>, x: number, y: number): Rgb {
  const px = Math.round(x * page.scale);
  const py = Math.round(y * page.scale);
  const sum = [0, 0, 0];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const at = ((py + dy) * page.width + px + dx) * 3;
      for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (page.data[at + c] ?? 0);
    }
  }
  return [Math.round((sum[0] ?? 0) / 9), Math.round((sum[1] ?? 0) / 9), Math.round((sum[2] ?? 0) / 9)];
}

/** Colour at a fraction (fx, fy) of the drawn image's box on page `index`. */
function colourInBox(doc: mupdf.PDFDocument, index: number, fx: number, fy: number, dpi = 36): Rgb {
  const box = imageBox(doc, index);
  return colourAt(render(doc, index, dpi), box.x + fx * box.w, box.y + fy * box.h);
}

function expectColour(actual: Rgb, expected: Rgb, tolerance = 12) {
  const distance = Math.max(...actual.map((value, c) => Math.abs(value - (expected[c] ?? 0))));
  expect(distance, `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

/** The image XObject drawn on page `index`. */
function pageImage(doc: mupdf.PDFDocument, index: number): mupdf.PDFObject {
  const page = doc.loadPage(index) as mupdf.PDFPage;
  const xobjects = page.getObject().get("Resources").get("XObject");
  let found: mupdf.PDFObject | undefined;
  xobjects.forEach((value) => {
    found = value;
  });
  if (!found) throw new Error(`no image on page ${index + 1}`);
  return found;
}

/** The colour of hue `i` of `n`, fully saturated: 30 of them are far apart. */
function hue(i: number, n: number): Rgb {
  const h = (i / n) * 6;
  const x = Math.round(255 * (1 - Math.abs((h % 2) - 1)));
  const sector = Math.floor(h);
  const table: Rgb[] = [
    [255, x, 0],
    [x, 255, 0],
    [0, 255, x],
    [0, x, 255],
    [x, 0, 255],
    [255, 0, x],
  ];
  return table[sector] ?? [255, 0, 0];
}

describe("imagesToPdf", () => {
  it("keeps the order of 30 images, one page each, JPEG streams byte for byte", async () => {
    const count = 30;
    const inputs: EngineInput[] = [];
    const colours: Rgb[] = [];
    for (let i = 0; i < count; i++) {
      const colour = hue(i, count);
      colours.push(colour);
      // Alternate formats so the order holds across the different embedding paths.
      const image = solid(colour, 100 + i, 80);
      const bytes = i % 3 === 0 ? await image.png().toBuffer() : await image.jpeg({ quality: 95 }).toBuffer();
      inputs.push(input(`image-${i}`, bytes));
    }
    const { doc, facts, progress } = await convert(inputs);
    expect(doc.countPages()).toBe(count);
    expect(facts).toMatchObject({ pages: count, images: count });
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    for (let i = 0; i < count; i++) {
      expectColour(colourInBox(doc, i, 0.5, 0.5), colours[i] ?? [0, 0, 0], 16);
      const stream = pageImage(doc, i);
      expect(stream.get("Width").asNumber()).toBe(100 + i);
      if (i % 3 !== 0) {
        expect(stream.get("Filter").asName()).toBe("DCTDecode");
        expect(
          Buffer.from(stream.readRawStream().asUint8Array()).equals(Buffer.from(inputs[i]?.bytes ?? [])),
        ).toBe(true);
      }
    }
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "shows a JPEG with EXIF orientation %i upright, without re-encoding it",
    async (orientation) => {
      const stored = { width: 240, height: 160 };
      const jpeg = await sharp(quadrantPixels(stored.width, stored.height), {
        raw: { ...stored, channels: 3 },
      })
        .jpeg({ quality: 95 })
        .withMetadata({ orientation })
        .toBuffer();
      // sharp's auto-orientation is the reference for where each corner belongs.
      const upright = await sharp(jpeg).rotate().raw().toBuffer({ resolveWithObject: true });
      const { doc } = await convert([input("photo.jpg", jpeg)]);
      const box = imageBox(doc, 0);
      const turned = orientation >= 5;
      expect(box.w > box.h).toBe(!turned);
      expect(Buffer.from(pageImage(doc, 0).readRawStream().asUint8Array()).equals(jpeg)).toBe(true);
      const page = render(doc, 0, 72);
      for (const [fx, fy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const { width, height } = upright.info;
        const at = (Math.floor(fy * height) * width + Math.floor(fx * width)) * 3;
        const expected: Rgb = [upright.data[at] ?? 0, upright.data[at + 1] ?? 0, upright.data[at + 2] ?? 0];
        expectColour(colourAt(page, box.x + fx * box.w, box.y + fy * box.h), expected, 24);
      }
    },
  );

  it("shows transparent PNG pixels as white, not their hidden colour", async () => {
    // Left half opaque blue; right half fully transparent over black.
    const width = 200;
    const height = 100;
    const pixels = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width / 2; x++) pixels.set([30, 60, 200, 255], (y * width + x) * 4);
    const png = await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    const { doc } = await convert([input("logo.png", png)]);
    expectColour(colourInBox(doc, 0, 0.25, 0.5), [30, 60, 200], 6);
    expectColour(colourInBox(doc, 0, 0.75, 0.5), [255, 255, 255], 2);
    expect(pageImage(doc, 0).get("SMask").isStream()).toBe(true);
  });

  it("shows an Adobe CMYK JPEG in its true colours, its stream untouched", async () => {
    const patches: Rgb[] = [
      [200, 30, 30],
      [30, 160, 60],
      [40, 60, 190],
      [240, 240, 240],
    ];
    const width = 200;
    const pixels = Buffer.alloc(width * 50 * 3);
    for (let y = 0; y < 50; y++)
      for (let x = 0; x < width; x++)
        pixels.set(patches[Math.floor(x / 50)] ?? [0, 0, 0], (y * width + x) * 3);
    const cmyk = await sharp(pixels, { raw: { width, height: 50, channels: 3 } })
      .toColourspace("cmyk")
      .withIccProfile("cmyk")
      .jpeg({ quality: 95 })
      .toBuffer();
    // libjpeg writes Adobe's inverted CMYK with the APP14 "Adobe" segment, as Photoshop does.
    expect(cmyk.includes(Buffer.from("Adobe"))).toBe(true);
    expect((await sharp(cmyk).metadata()).space).toBe("cmyk");
    const reference = await sharp(cmyk).toColourspace("srgb").raw().toBuffer();
    const { doc } = await convert([input("print.jpg", cmyk)]);
    const stream = pageImage(doc, 0);
    expect(Buffer.from(stream.readRawStream().asUint8Array()).equals(cmyk)).toBe(true);
    for (let patch = 0; patch < patches.length; patch++) {
      const at = (25 * width + patch * 50 + 25) * 3;
      const expected: Rgb = [reference[at] ?? 0, reference[at + 1] ?? 0, reference[at + 2] ?? 0];
      // MuPDF's and libvips' conversions through the same profile agree within a few levels;
      // CMYK read without Adobe's inversion would be the complementary colour.
      expectColour(colourInBox(doc, 0, (patch + 0.5) / patches.length, 0.5, 72), expected, 14);
    }
  });

  it("keeps a 16-bit PNG at 16 bits per sample and shows the same picture", async () => {
    const width = 256;
    const height = 64;
    const pixels = new Uint16Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) pixels.set([x * 257, 65535 - x * 257, y * 1024], (y * width + x) * 3);
    // A Uint16Array makes sharp read 16-bit samples.
    const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .toColourspace("rgb16")
      .png()
      .toBuffer();
    expect((await sharp(png).metadata()).depth).toBe("ushort");
    const { doc } = await convert([input("deep.png", png)]);
    expect(pageImage(doc, 0).get("BitsPerComponent").asNumber()).toBe(16);
    expectColour(colourInBox(doc, 0, 0.1, 0.5, 72), [26, 229, 128], 10);
    expectColour(colourInBox(doc, 0, 0.9, 0.5, 72), [230, 25, 128], 10);
  });

  it("converts a lossy WebP with alpha and a lossless WebP", async () => {
    const half = Buffer.alloc(100 * 60 * 4);
    for (let i = 0; i < 100 * 60; i++) half.set(i % 100 < 50 ? [200, 100, 0, 255] : [0, 0, 0, 0], i * 4);
    const lossy = await sharp(half, { raw: { width: 100, height: 60, channels: 4 } })
      .webp({ quality: 90 })
      .toBuffer();
    const lossless = await solid([10, 120, 90]).webp({ lossless: true }).toBuffer();
    const { doc } = await convert([input("a.webp", lossy), input("b.webp", lossless)]);
    expect(doc.countPages()).toBe(2);
    expectColour(colourInBox(doc, 0, 0.2, 0.5), [200, 100, 0], 16);
    expectColour(colourInBox(doc, 0, 0.8, 0.5), [255, 255, 255], 4);
    expectColour(colourInBox(doc, 1, 0.5, 0.5), [10, 120, 90], 2);
  });

  it("puts the first frame of an animated GIF and says so", async () => {
    const frames = [
      await solid([200, 0, 0], 60, 40).png().toBuffer(),
      await solid([0, 0, 200], 60, 40).png().toBuffer(),
    ];
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const still = await solid([0, 150, 0], 60, 40).gif().toBuffer();
    const { doc, facts } = await convert([input("anim.gif", gif), input("still.gif", still)]);
    expect(facts).toMatchObject({ pages: 2, images: 2, first_frame_only: 1 });
    expectColour(colourInBox(doc, 0, 0.5, 0.5), [200, 0, 0], 8);
    expectColour(colourInBox(doc, 1, 0.5, 0.5), [0, 150, 0], 8);
  });

  it.each([
    ["portrait", "none"],
    ["portrait", "small"],
    ["portrait", "large"],
    ["landscape", "none"],
    ["landscape", "small"],
    ["landscape", "large"],
  ] as const)("lays out A4 %s with margin %s, images fitted and centred", async (orientation, margin) => {
    const wide = await solid([50, 50, 50], 400, 100).png().toBuffer();
    const tall = await solid([50, 50, 50], 100, 400).png().toBuffer();
    const tiny = await solid([50, 50, 50], 4, 3).png().toBuffer();
    const { doc } = await convert(
      [input("wide.png", wide), input("tall.png", tall), input("tiny.png", tiny)],
      {
        orientation,
        margin,
      },
    );
    const portrait = orientation === "portrait";
    const pageWidth = portrait ? A4_POINTS.width : A4_POINTS.height;
    const pageHeight = portrait ? A4_POINTS.height : A4_POINTS.width;
    const m = MARGIN_POINTS[margin];
    for (let i = 0; i < 3; i++) {
      const [, , w, h] = doc.loadPage(i).getBounds();
      expect(w).toBeCloseTo(pageWidth, 1);
      expect(h).toBeCloseTo(pageHeight, 1);
      const box = imageBox(doc, i);
      // Fitted: touches the margin on one axis; centred: equal space either side on both.
      const touchesSides = Math.abs(box.w - (pageWidth - 2 * m)) < 0.01;
      const touchesTopAndBottom = Math.abs(box.h - (pageHeight - 2 * m)) < 0.01;
      expect(touchesSides || touchesTopAndBottom).toBe(true);
      expect(box.x).toBeCloseTo(pageWidth - box.x - box.w, 2);
      expect(box.y).toBeCloseTo(pageHeight - box.y - box.h, 2);
      expect(box.x).toBeGreaterThanOrEqual(m - 0.01);
      expect(box.y).toBeGreaterThanOrEqual(m - 0.01);
    }
    // The wide image spans the width; the tall one the height.
    expect(imageBox(doc, 0).w).toBeCloseTo(pageWidth - 2 * m, 2);
    expect(imageBox(doc, 1).h).toBeCloseTo(pageHeight - 2 * m, 2);
    expect(imageBox(doc, 0).w / imageBox(doc, 0).h).toBeCloseTo(4, 4);
    expect(imageBox(doc, 2).w / imageBox(doc, 2).h).toBeCloseTo(4 / 3, 4);
  });

  it("takes a JPEG with data after its end (an appended gain map) byte for byte", async () => {
    const jpeg = await solid([90, 40, 160]).jpeg({ progressive: true }).toBuffer();
    const appended = Buffer.concat([jpeg, await solid([0, 0, 0], 16, 16).jpeg().toBuffer()]);
    const { doc } = await convert([input("hdr.jpg", appended)]);
    expect(Buffer.from(pageImage(doc, 0).readRawStream().asUint8Array()).equals(appended)).toBe(true);
    expectColour(colourInBox(doc, 0, 0.5, 0.5), [90, 40, 160], 12);
  });

  it("names the damaged image by its index", async () => {
    const good = await solid([0, 0, 0]).jpeg().toBuffer();
    const truncated = good.subarray(0, Math.floor(good.length * 0.6));
    // A progressive JPEG missing its last scans reads as blurred, not whole.
    const progressive = await solid([200, 10, 10], 64, 64).jpeg({ progressive: true }).toBuffer();
    const lastScan = progressive.lastIndexOf(Buffer.from([0xff, 0xda]));
    const unfinished = Buffer.concat([progressive.subarray(0, lastScan), Buffer.from([0xff, 0xd9])]);
    const notPng = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 7),
    ]);
    const png = await solid([10, 10, 10], 200, 200).png().toBuffer();
    // Flip bytes in the middle of the zlib data.
    const corruptPng = Buffer.from(png);
    corruptPng.fill(0xaa, Math.floor(png.length / 2), Math.floor(png.length / 2) + 16);
    for (const bad of [truncated, unfinished, notPng, corruptPng]) {
      await expect(convert([input("ok.jpg", good), input("bad", bad)])).rejects.toMatchObject({
        code: "IMAGE_DAMAGED",
        context: { file_index: 1 },
      });
    }
  });
});

function channelMean(data: Uint8Array, channel: number): number {
  let sum = 0;
  for (let i = channel; i < data.length; i += 3) sum += data[i] ?? 0;
  return sum / (data.length / 3);
}

const CORPUS = join(import.meta.dirname, "../../../shared/corpus/img");

describe.skipIf(!existsSync(CORPUS))("imagesToPdf on the corpus (../shared/corpus/img)", () => {
  it.each(["cmyk_with_profile.jpg", "png_phone_screen_rgba.png", "webp_alpha.webp", "png16_flag_rgb16.png"])(
    "%s looks as sharp shows it, flattened on white",
    async (name) => {
      const bytes = readFileSync(join(CORPUS, name));
      const { doc } = await convert([input(name, bytes)], { margin: "none", orientation: "portrait" });
      const box = imageBox(doc, 0);
      const dpi = 144;
      const page = render(doc, 0, dpi);
      const scale = dpi / 72;
      // Both sides shrunk the same way (area average) to 128 pixels wide (sub-pixel offsets between two resamplers matter less).
      const size = { width: 128, height: Math.max(1, Math.round((128 * box.h) / box.w)) };
      const pageImage = sharp(page.data, {
        raw: { width: page.width, height: page.data.length / 3 / page.width, channels: 3 },
      });
      const drawn = await pageImage
        .extract({
          left: Math.ceil(box.x * scale),
          top: Math.ceil(box.y * scale),
          width: Math.floor(box.w * scale) - 1,
          height: Math.floor(box.h * scale) - 1,
        })
        .resize({ ...size, fit: "fill" })
        .raw()
        .toBuffer();
      const expected = await sharp(bytes)
        .rotate()
        .flatten({ background: "#fff" })
        .toColourspace("srgb")
        .resize({ ...size, fit: "fill" })
        .raw()
        .toBuffer();
      expect(
        ssim({ ...size, data: drawn, channels: 3 }, { ...size, data: expected, channels: 3 }),
      ).toBeGreaterThan(0.95);
      // No colour cast: each channel's mean within 3 levels of sharp's.
      for (let c = 0; c < 3; c++)
        expect(Math.abs(channelMean(drawn, c) - channelMean(expected, c))).toBeLessThan(3);
    },
  );
});
