/**
 * `npm run bench:outside-images`: files of the shapes real users bring and neither corpus holds,
 * built in code (bench/outside-builders.ts, sharp, `heif-enc`, Chromium screenshots), run through
 * the real stack's API by every image tool and Markdown to PDF, and judged as bench/sweep.ts judges
 * (its jobs, references and verdicts) plus quality:
 * - images: the output's pixels against sharp's own reading of the input (EXIF orientation applied,
 *   converted to sRGB, flattened on white) on a 6 × 6 grid of means: a flip, a turn, CMYK or
 *   wide-gamut colours read wrong, or alpha over black show as a cell far off; a PDF page is drawn by
 *   pdftoppm and its picture found by its non-white box; compress-image never larger than the input;
 * - Markdown: a valid PDF whose text (pdftotext) holds every character of the source's visible text
 *   and each phrase in order (right-to-left text, table rows' cells in order), whose fonts have a
 *   glyph for every character MuPDF reads (no tofu), with no script run and no remote image fetched.
 *
 *   npm run bench:outside-images -- [--match REGEX] [--tool id[,id…]] [--keep DIR] [--concurrency C]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as mupdf from "mupdf";
import sharp, { type Sharp } from "sharp";
import { TOOLS } from "../contract/index.ts";
import { multiSizeTiff } from "../tests/container/image-kind-fixtures.ts";
import { utf16WithMark } from "../tests/support/text-encodings.ts";
import { BenchClient, taskForm, withStack } from "./api-driver.ts";
import {
  ascii,
  encodeApng,
  encodeBmp,
  encodeJpeg,
  encodePng,
  exifSegment,
  type Paint,
  pngChunk,
  rawPixels,
  scene,
  withSegments,
  xmpSegment,
} from "./outside-builders.ts";
import {
  checkPdf,
  EXTENSION_KINDS,
  exec,
  execOn,
  type ImageReference,
  imageJobs,
  imageReference,
  missingCharacters,
  runJob,
  runPool,
  type SweepJob,
  type SweepResult,
} from "./sweep.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

type ImageKind = Parameters<typeof imageJobs>[1];

interface ImageInput {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** An image sharp reads that shows what the input shows (HEIC: heif-convert's PNG of it). */
  readonly reference?: Uint8Array;
  /** Judge colours on the grid (false for screenshots: white backgrounds). */
  readonly colours?: boolean;
  /**
   * CMYK without a profile: its colours are the CMYK profile each reader assumes (sharp's own, a
   * PDF viewer's default for DeviceCMYK), so a PDF's page may differ from sharp's reading by more.
   */
  readonly untaggedCmyk?: boolean;
}

const ICC = "/usr/share/color/icc/ghostscript";
const has = (command: string) => {
  try {
    execFileSync("which", [command], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const W = 320;
const H = 200;

/** sharp of `paint` at width × height, 3 or 4 channels. */
const sharpOf = (width: number, height: number, paint: Paint, channels: 3 | 4 = 3): Sharp =>
  sharp(rawPixels(width, height, paint, channels), { raw: { width, height, channels } });

async function heifInputs(work: string): Promise<ImageInput[]> {
  if (!has("heif-enc")) return [];
  const out: ImageInput[] = [];
  const run = async (name: string, source: Uint8Array, sourceName: string, args: string[]) => {
    const input = join(work, sourceName);
    const output = join(work, name);
    writeFileSync(input, source);
    const result = await exec("heif-enc", [...args, "-o", output, input]);
    if (result.code !== 0) {
      console.log(`heif-enc ${name}: ${result.stderr.trim().split("\n").at(-1)}`);
      return;
    }
    const bytes = new Uint8Array(readFileSync(output));
    const png = join(work, `${name}.ref.png`);
    const decoded = has("heif-convert") ? await exec("heif-convert", [output, png]) : { code: 1 };
    out.push({
      name,
      bytes,
      // heif-convert copies the EXIF into the PNG; HEIF shows its pixels turned by irot/imir only
      // (ISO/IEC 23008-12; EXIF orientation is informative): the reference is the pixels, no EXIF.
      ...(decoded.code === 0
        ? { reference: new Uint8Array(await sharp(readFileSync(png)).png().toBuffer()) }
        : {}),
    });
  };
  const rgb = await sharpOf(W, H, scene(W, H)).png().toBuffer();
  const rgba = await sharpOf(W, H, scene(W, H, true), 4)
    .png()
    .toBuffer();
  const deep = encodePng(W, H, scene(W, H), { colorType: 2, depth: 16 });
  const turned = await sharpOf(W, H, scene(W, H))
    .jpeg({ quality: 92 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  await run("heic-plain.heic", rgb, "heic-plain.png", ["-q", "80"]);
  await run("heic-alpha.heic", rgba, "heic-alpha.png", ["-q", "80"]);
  await run("heic-10bit.heic", deep, "heic-10bit.png", ["-q", "80", "-b", "10"]);
  await run("heic-exif-6.heic", turned, "heic-exif-6.jpg", ["-q", "80"]);
  await run("heic-444.heic", rgb, "heic-444.png", ["-q", "90", "-p", "chroma=444"]);
  await run("avif-heifenc-alpha.avif", rgba, "avif-alpha.png", ["-A", "-q", "70"]);
  return out;
}

async function screenshots(): Promise<ImageInput[]> {
  let chromium: typeof import("playwright-core").chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch {
    return [];
  }
  if (!has("chromium")) return [];
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const html = `<html><body style="font:16px sans-serif;margin:24px"><h1>Quarterly report — Überblick</h1>
      ${Array.from({ length: 40 }, (_, i) => `<p style="color:hsl(${i * 9},60%,35%)">Row ${i}: the quick brown fox jumps over the lazy dog ${i * 37}</p>`).join("")}
      <div style="width:300px;height:120px;background:linear-gradient(90deg,#c33,#33c)"></div></body></html>`;
    const out: ImageInput[] = [];
    for (const [name, scale] of [
      ["screenshot-1x.png", 1],
      ["screenshot-2x.png", 2],
    ] as const) {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: scale,
      });
      await page.setContent(html);
      out.push({ name, bytes: new Uint8Array(await page.screenshot({ type: "png" })), colours: false });
      if (scale === 2)
        out.push({
          name: "screenshot-2x.jpg",
          bytes: new Uint8Array(await page.screenshot({ type: "jpeg", quality: 90 })),
          colours: false,
        });
      await page.close();
    }
    return out;
  } finally {
    await browser.close();
  }
}

/** Every image input. */
async function imageInputs(work: string): Promise<ImageInput[]> {
  const paint = scene(W, H);
  const alpha = scene(W, H, true);
  const inputs: ImageInput[] = [];
  const add = (name: string, bytes: Uint8Array | Buffer, extra: Partial<ImageInput> = {}) =>
    inputs.push({ name, bytes: new Uint8Array(bytes), ...extra });

  // JPEG: EXIF orientations 2–8 (sharp writes the tag), also at phone size (container path).
  for (let orientation = 2; orientation <= 8; orientation++)
    add(
      `jpeg-orient-${orientation}.jpg`,
      await sharpOf(W, H, paint).jpeg({ quality: 90 }).withMetadata({ orientation }).toBuffer(),
    );
  add(
    "jpeg-phone-4032x3024-orient-6-p3.jpg",
    await sharpOf(4032, 3024, scene(4032, 3024))
      .withIccProfile("p3")
      .jpeg({ quality: 88 })
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  );
  // Colour spaces and profiles.
  const inks = scene(W, H);
  const untagged = { untaggedCmyk: true };
  add(
    "jpeg-cmyk-sharp.jpg",
    await sharpOf(W, H, paint).toColourspace("cmyk").jpeg({ quality: 90 }).toBuffer(),
    untagged,
  );
  add("jpeg-cmyk-adobe.jpg", encodeJpeg(W, H, cmykOf(inks), { color: "cmyk" }), untagged);
  add("jpeg-ycck-adobe.jpg", encodeJpeg(W, H, cmykOf(inks), { color: "ycck", sampling: [2, 2] }), untagged);
  add(
    "jpeg-cmyk-big.jpg",
    await sharpOf(2400, 1600, scene(2400, 1600)).toColourspace("cmyk").jpeg({ quality: 85 }).toBuffer(),
    untagged,
  );
  add("jpeg-gray.jpg", await sharpOf(W, H, paint).greyscale().jpeg().toBuffer());
  add("jpeg-gray-hand.jpg", encodeJpeg(W, H, paint, { color: "gray" }));
  add("jpeg-progressive.jpg", await sharpOf(W, H, paint).jpeg({ progressive: true }).toBuffer());
  add("jpeg-restart.jpg", encodeJpeg(W, H, paint, { color: "ycc", sampling: [2, 2], restart: 3 }));
  add("jpeg-444.jpg", await sharpOf(W, H, paint).jpeg({ chromaSubsampling: "4:4:4" }).toBuffer());
  add("jpeg-422.jpg", encodeJpeg(W, H, paint, { color: "ycc", sampling: [2, 1] }));
  add("jpeg-411.jpg", encodeJpeg(W, H, paint, { color: "ycc", sampling: [4, 1] }));
  add("jpeg-440.jpg", encodeJpeg(W, H, paint, { color: "ycc", sampling: [1, 2] }));
  add("jpeg-420.jpg", await sharpOf(W, H, paint).jpeg({ chromaSubsampling: "4:2:0" }).toBuffer());
  add("jpeg-odd-size.jpg", encodeJpeg(317, 203, scene(317, 203), { color: "ycc", sampling: [2, 2] }));
  add("jpeg-p3.jpg", await sharpOf(W, H, paint).withIccProfile("p3").jpeg().toBuffer());
  add("jpeg-adobergb.jpg", await sharpOf(W, H, paint).withIccProfile(`${ICC}/a98.icc`).jpeg().toBuffer());
  add("jpeg-prophoto.jpg", await sharpOf(W, H, paint).withIccProfile(`${ICC}/rommrgb.icc`).jpeg().toBuffer());
  add(
    "jpeg-gray-icc.jpg",
    await sharpOf(W, H, paint).greyscale().withIccProfile(`${ICC}/sgray.icc`).jpeg().toBuffer(),
  );
  const thumb = await sharpOf(160, 100, scene(160, 100)).jpeg({ quality: 70 }).toBuffer();
  const plain = await sharpOf(W, H, paint).jpeg({ quality: 90 }).toBuffer();
  add(
    "jpeg-huge-exif-xmp-thumb.jpg",
    withSegments(plain, [exifSegment(6, "x".repeat(40_000), thumb), xmpSegment(60_000), xmpSegment(60_000)]),
  );
  add("jpeg-exif-orient-3-hand.jpg", withSegments(plain, [exifSegment(3, "Camera")]));
  add(
    "jpeg-trailing-mp4.jpg",
    new Uint8Array([
      ...plain,
      ...[0, 0, 0, 0x18],
      ...ascii("ftypmp42"),
      ...new Array(20_000).fill(0).map((_, i) => (i * 31) & 255),
    ]),
  );
  add("jpeg-trailing-garbage.jpg", new Uint8Array([...plain, ...ascii("\r\n\0\0JUNK-APPENDED-BY-UPLOADER")]));
  add(
    "jpeg-two-images-mpf.jpg",
    new Uint8Array([...plain, ...(await sharpOf(160, 100, scene(160, 100)).jpeg().toBuffer())]),
  );

  // PNG: every colour type and depth, palettes with tRNS, Adam7, APNG, ancillary chunks.
  for (const depth of [1, 2, 4, 8, 16] as const)
    add(`png-gray-${depth}bit.png`, encodePng(W, H, paint, { colorType: 0, depth }));
  add("png-gray-16bit-adam7.png", encodePng(W, H, paint, { colorType: 0, depth: 16, interlace: true }));
  add("png-rgb-16bit.png", encodePng(W, H, paint, { colorType: 2, depth: 16 }));
  add("png-rgba-16bit.png", encodePng(W, H, alpha, { colorType: 6, depth: 16 }));
  add("png-graya-8bit.png", encodePng(W, H, alpha, { colorType: 4, depth: 8 }));
  add("png-graya-16bit.png", encodePng(W, H, alpha, { colorType: 4, depth: 16 }));
  const palette = paletteOf(16);
  add("png-palette-4bit.png", encodePng(W, H, paint, { colorType: 3, depth: 4, palette }));
  add(
    "png-palette-trns.png",
    encodePng(W, H, alpha, {
      colorType: 3,
      depth: 8,
      palette: paletteOf(64).map((c, i) => [...c, 120 + (i % 4) * 45]),
    }),
  );
  add(
    "png-palette-1bit.png",
    encodePng(W, H, paint, {
      colorType: 3,
      depth: 1,
      palette: [
        [30, 30, 90],
        [200, 170, 40],
      ],
    }),
  );
  add("png-rgb-adam7.png", encodePng(W, H, paint, { colorType: 2, depth: 8, interlace: true }));
  add(
    "png-palette-adam7.png",
    encodePng(W, H, paint, { colorType: 3, depth: 8, palette: paletteOf(64), interlace: true }),
  );
  add("png-rgba-adam7.png", encodePng(W, H, alpha, { colorType: 6, depth: 8, interlace: true }));
  add("png-rgb-trns-key.png", encodePng(W, H, paint, { colorType: 2, depth: 8, transparent: [200, 40, 40] }));
  add("png-apng.png", encodeApng(W, H, [paint, scene(W, H, true), (x, y) => paint(W - 1 - x, y)]));
  add(
    "png-gamma-045.png",
    encodePng(W, H, paint, { colorType: 2, depth: 8, chunks: [pngChunk("gAMA", [0, 0, 0xb1, 0x8f])] }),
  );
  add(
    "png-srgb-chunk.png",
    encodePng(W, H, paint, { colorType: 2, depth: 8, chunks: [pngChunk("sRGB", [0])] }),
  );
  add("png-p3-iccp.png", await sharpOf(W, H, paint).withIccProfile("p3").png().toBuffer());
  add(
    "png-big-16bit-adam7.png",
    encodePng(1800, 1500, scene(1800, 1500), { colorType: 2, depth: 16, interlace: true }),
  );
  add(
    "png-big-rgba.png",
    await sharpOf(2000, 1400, scene(2000, 1400, true), 4)
      .png()
      .toBuffer(),
  );
  add("png-odd-1x1.png", encodePng(1, 1, paint, { colorType: 6, depth: 8 }), { colours: false });
  add("png-tall-1x3000.png", encodePng(4, 3000, scene(4, 3000), { colorType: 2, depth: 8 }), {
    colours: false,
  });

  // WebP.
  add("webp-lossy.webp", await sharpOf(W, H, paint).webp({ quality: 80 }).toBuffer());
  add("webp-lossless.webp", await sharpOf(W, H, paint).webp({ lossless: true }).toBuffer());
  add("webp-alpha.webp", await sharpOf(W, H, alpha, 4).webp({ quality: 80 }).toBuffer());
  add("webp-alpha-lossless.webp", await sharpOf(W, H, alpha, 4).webp({ lossless: true }).toBuffer());
  const frames = await Promise.all(
    [alpha, (x: number, y: number) => alpha(W - 1 - x, y), (x: number, y: number) => alpha(x, H - 1 - y)].map(
      (p) => sharpOf(W, H, p, 4).png().toBuffer(),
    ),
  );
  add(
    "webp-animated.webp",
    await sharp(frames, { join: { animated: true } })
      .webp({ quality: 80 })
      .toBuffer(),
  );
  add("webp-p3.webp", await sharpOf(W, H, paint).withIccProfile("p3").webp({ quality: 85 }).toBuffer());
  add("webp-exif-6.webp", await sharpOf(W, H, paint).webp().withMetadata({ orientation: 6 }).toBuffer());

  // GIF.
  add(
    "gif-animated-alpha.gif",
    await sharp(frames, { join: { animated: true } })
      .gif({ reuse: false })
      .toBuffer(),
  );
  add("gif-still.gif", await sharpOf(W, H, paint).gif().toBuffer());

  // HEIC/AVIF.
  inputs.push(...(await heifInputs(work)));
  add("avif-sharp.avif", await sharpOf(W, H, paint).avif({ quality: 60 }).toBuffer());
  add("avif-alpha.avif", await sharpOf(W, H, alpha, 4).avif({ quality: 60 }).toBuffer());
  add("avif-10bit.avif", await sharpOf(W, H, paint).avif({ quality: 60, bitdepth: 10 }).toBuffer());

  // TIFF.
  add(
    "tiff-multipage.tiff",
    multiSizeTiff([
      { width: W, height: H, paint },
      { width: 200, height: 300, paint: scene(200, 300) },
      { width: 100, height: 100, paint: scene(100, 100) },
    ]),
  );
  add(
    "tiff-16bit-lzw.tiff",
    await sharpOf(W, H, paint).toColourspace("rgb16").tiff({ compression: "lzw" }).toBuffer(),
  );
  add(
    "tiff-cmyk-deflate.tiff",
    await sharpOf(W, H, paint).toColourspace("cmyk").tiff({ compression: "deflate" }).toBuffer(),
  );
  add("tiff-jpeg.tiff", await sharpOf(W, H, paint).tiff({ compression: "jpeg", quality: 85 }).toBuffer());
  add(
    "tiff-tiled-alpha.tiff",
    await sharpOf(W, H, alpha, 4)
      .tiff({ tile: true, tileWidth: 64, tileHeight: 64, compression: "deflate" })
      .toBuffer(),
  );
  add(
    "tiff-gray-packbits.tiff",
    await sharpOf(W, H, paint).greyscale().tiff({ compression: "packbits" }).toBuffer(),
  );
  add(
    "tiff-1bit-ccitt.tiff",
    await sharpOf(W, H, paint)
      .threshold(128)
      .toColourspace("b-w")
      .tiff({ compression: "ccittfax4", bitdepth: 1 })
      .toBuffer(),
    {
      colours: false,
    },
  );

  // BMP, headers written here; sharp does not read BMP, so the picture painted is the reference
  // (palette files only by size: their colours are the palette's).
  const painted = new Uint8Array(await sharpOf(W, H, paint).png().toBuffer());
  const paintedAlpha = new Uint8Array(await sharpOf(W, H, alpha, 4).png().toBuffer());
  const bmp = { reference: painted };
  add("bmp-24-bottom-up.bmp", encodeBmp(W, H, paint, { bits: 24 }), bmp);
  add("bmp-24-top-down.bmp", encodeBmp(W, H, paint, { bits: 24, topDown: true }), bmp);
  add("bmp-32-v5-alpha.bmp", encodeBmp(W, H, alpha, { bits: 32, topDown: true }), {
    reference: paintedAlpha,
  });
  add("bmp-16-565.bmp", encodeBmp(W, H, paint, { bits: 16 }), bmp);
  add("bmp-os2-core.bmp", encodeBmp(W, H, paint, { bits: 24, header: 12 }), bmp);
  const sized = { reference: painted, colours: false };
  add("bmp-8-rle.bmp", encodeBmp(W, H, paint, { bits: 8, rle8: true }), sized);
  add("bmp-8-palette.bmp", encodeBmp(W, H, paint, { bits: 8 }), sized);
  add("bmp-4-palette.bmp", encodeBmp(W, H, paint, { bits: 4 }), sized);
  add("bmp-1-bit.bmp", encodeBmp(W, H, paint, { bits: 1 }), sized);

  // Not accepted kinds: a clear named error.
  add(
    "vector.svg",
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#c33"/></svg>`,
    ),
  );
  add("favicon.ico", icoOf(await sharpOf(32, 32, scene(32, 32)).png().toBuffer()));

  inputs.push(...(await screenshots()));
  return inputs;
}

/** Ink of a CMYK print of `paint`: CMY from RGB with grey replaced by black. */
function cmykOf(paint: Paint): Paint {
  return (x, y) => {
    const [r = 0, g = 0, b = 0] = paint(x, y);
    const k = 255 - Math.max(r, g, b);
    const scale = 255 - k || 1;
    return [((255 - r - k) * 255) / scale, ((255 - g - k) * 255) / scale, ((255 - b - k) * 255) / scale, k];
  };
}

function paletteOf(count: number): number[][] {
  const side = Math.round(Math.cbrt(count));
  return Array.from({ length: count }, (_, i) => [
    30 + ((i % side) * 190) / (side - 1 || 1),
    30 + ((Math.floor(i / side) % side) * 190) / (side - 1 || 1),
    30 + ((Math.floor(i / side / side) % side) * 190) / (side - 1 || 1),
  ]).map((c) => c.map(Math.round));
}

function icoOf(png: Uint8Array): Uint8Array {
  const le16 = (v: number) => [v & 255, (v >> 8) & 255];
  const le32 = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
  return new Uint8Array([
    ...le16(0),
    ...le16(1),
    ...le16(1),
    32,
    32,
    0,
    0,
    ...le16(1),
    ...le16(32),
    ...le32(png.length),
    ...le32(22),
    ...png,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Image quality.

const GRID = 6;

/** The 6 × 6 grid of mean sRGB colours (box means) of an image flattened on white, after its orientation. */
async function grid(image: Sharp): Promise<number[]> {
  const { data, info } = await image
    .rotate()
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sums = new Array(GRID * GRID * 3).fill(0);
  const counts = new Array(GRID * GRID).fill(0);
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const cell = Math.floor((y * GRID) / info.height) * GRID + Math.floor((x * GRID) / info.width);
      counts[cell]++;
      for (let c = 0; c < 3; c++) sums[cell * 3 + c] += data[(y * info.width + x) * info.channels + c] ?? 0;
    }
  return sums.map((sum, i) => sum / (counts[Math.floor(i / 3)] || 1));
}

/** The largest difference of one channel of one cell. */
const gridDistance = (a: readonly number[], b: readonly number[]) =>
  Math.max(...a.map((v, i) => Math.abs(v - (b[i] ?? 0))));

/**
 * Where on a drawn page the picture is: the box of its non-white pixels. MuPDF draws the page, with
 * colour management (DeviceCMYK through its default CMYK profile, as Acrobat and pdf.js convert with
 * a SWOP-like one); Poppler converts DeviceCMYK without a profile, far from what sharp reads.
 */
async function pictureOnPage(pdf: Uint8Array): Promise<Sharp | string> {
  let png: Buffer;
  try {
    const page = mupdf.Document.openDocument(pdf, "application/pdf").loadPage(0);
    png = Buffer.from(page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false).asPNG());
  } catch (error) {
    return `MuPDF cannot draw page 1: ${(error as Error).message}`;
  }
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [left, top, right, bottom] = [info.width, info.height, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if ((data[i] ?? 255) < 246 || (data[i + 1] ?? 255) < 246 || (data[i + 2] ?? 255) < 246) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
  if (right < 0) return "page 1 is blank";
  return sharp(png).extract({ left, top, width: right - left + 1, height: bottom - top + 1 });
}

const COLOUR_LIMIT = 24;
/** The limit for a PDF page of untagged CMYK (MuPDF's default CMYK profile against sharp's: up to 36 measured). */
const UNTAGGED_CMYK_PDF_LIMIT = 40;

/** Quality problems of an output against the input: null when none. */
async function qualityProblem(
  tool: string,
  input: ImageInput,
  output: Uint8Array,
  reference: Uint8Array,
): Promise<string | null> {
  if (tool === "compress-image" && output.length > input.bytes.length)
    return `compressed ${output.length} B > input ${input.bytes.length} B`;
  if (input.colours === false) return null;
  const expected = await grid(sharp(reference, { limitInputPixels: false }));
  const isPdf = output[0] === 0x25 && output[1] === 0x50;
  let picture: Sharp;
  if (isPdf) {
    const found = await pictureOnPage(output);
    if (typeof found === "string") return found;
    picture = found;
    const meta = await sharp(reference).rotate().metadata();
    const { info } = await picture.clone().raw().toBuffer({ resolveWithObject: true });
    const turned = (meta.orientation ?? 1) >= 5;
    const [w, h] = turned
      ? [meta.height ?? 1, meta.width ?? 1]
      : [meta.width ?? 1, meta.pageHeight ?? meta.height ?? 1];
    const [ratio, drawn] = [w / h, info.width / info.height];
    if (Math.abs(ratio / drawn - 1) > 0.06 && Math.min(info.width, info.height) > 8)
      return `picture on the page is ${info.width}×${info.height}, the image ${w}×${h}`;
  } else picture = sharp(output, { limitInputPixels: false });
  const actual = await grid(picture);
  const distance = gridDistance(expected, actual);
  const limit = isPdf && input.untaggedCmyk ? UNTAGGED_CMYK_PDF_LIMIT : COLOUR_LIMIT;
  return distance > limit
    ? `colours off: a grid cell differs by ${distance.toFixed(1)}/255 from sharp's reading`
    : null;
}

// ---------------------------------------------------------------------------------------------
// Markdown.

interface MarkdownInput {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** Text the PDF must hold: every character, and each phrase in order (white space aside). */
  readonly phrases: readonly string[];
  /** Text that must not be in the PDF (a script's output). */
  readonly absent?: readonly string[];
  /** Cells of table rows, each row's cells to be read in order on one line. */
  readonly rows?: readonly (readonly string[])[];
  /** The error code a refusal must have ("any" named code), when the input is not one to typeset. */
  readonly refusal?: string;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function latin1(text: string): Uint8Array {
  return Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 255));
}

function markdownInputs(remote: string): MarkdownInput[] {
  const docs: MarkdownInput[] = [];
  const add = (name: string, source: string, phrases: string[], extra: Partial<MarkdownInput> = {}) =>
    docs.push({ name, bytes: utf8(source), phrases, ...extra });
  const languages: Record<string, string> = {
    en: "The quick brown fox jumps over the lazy dog.",
    es: "El pingüino Wenceslao hizo kilómetros bajo exhaustiva lluvia y frío; añoraba a su querido cachorro.",
    de: "Falsches Üben von Xylophonmusik quält jeden größeren Zwerg.",
    fr: "Portez ce vieux whisky au juge blond qui fume ; l’œuvre coûte 15 €.",
    hi: "हिन्दी भारत की राजभाषा है। क्षत्रिय, श्रीमान, द्वार और विद्यालय।",
    te: "తెలుగు దక్షిణ భారతదేశంలో మాట్లాడే భాష. క్షమ, శ్రీకాకుళం, స్త్రీ.",
    ta: "தமிழ் உலகின் மிகப் பழமையான மொழிகளில் ஒன்று. ஸ்ரீ, கொடி, பௌர்ணமி.",
  };
  for (const [code, text] of Object.entries(languages))
    add(`md-${code}.md`, `# ${code}\n\n${text}\n`, [text]);
  const scripts: Record<string, string> = {
    arabic: "اللغة العربية جميلة جدا",
    hebrew: "עברית היא שפה שמית",
    chinese: "中文是世界上使用人数最多的语言",
    japanese: "日本語の文章とカタカナ",
    korean: "한국어는 아름다운 언어입니다",
    thai: "ภาษาไทยเป็นภาษาที่สวยงาม",
    bengali: "বাংলা একটি সুন্দর ভাষা",
    russian: "Съешь же ещё этих мягких французских булок",
    greek: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία",
    vietnamese: "Tiếng Việt có nhiều dấu thanh: ắ ề ỗ ự",
  };
  for (const [name, text] of Object.entries(scripts)) add(`md-${name}.md`, `# ${name}\n\n${text}\n`, [text]);
  add("md-mixed-line.md", "English, हिन्दी, தமிழ், తెలుగు and العربية and 中文 in one line.\n", [
    "English, हिन्दी, தமிழ், తెలుగు and",
    "العربية",
    "中文",
  ]);
  add("md-emoji.md", "Emoji: 😀 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇮🇳 🇫🇷 ✅ ❤️ 🎉\n", ["Emoji:", "😀", "✅", "🎉", "🇮🇳"]);
  add(
    "md-gfm-table-wide.md",
    [
      "| Left | Centre | Right | Four | Five | Six | Seven | Eight |",
      "|:-----|:------:|------:|------|------|-----|-------|-------|",
      "| a1 | b1 | c1 | d1 | e1 | f1 | g1 | h1 |",
      "| a2 | b2 | c2 | d2 | e2 | f2 | g2 | h2 |",
      "| लंबा पाठ | தமிழ் | 12345.67 | long cell with many words in it to wrap | e3 | f3 | g3 | h3 |",
    ].join("\n"),
    ["a1", "h2", "12345.67"],
    {
      rows: [
        ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
        ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"],
      ],
    },
  );
  add(
    "md-lists.md",
    "- [x] done task\n- [ ] open task\n\n1. one\n   - nested a\n     1. deep one\n2. two\n\n> quote\n> > nested quote\n",
    ["done task", "open task", "nested a", "deep one", "nested quote"],
  );
  add(
    "md-footnotes.md",
    "Text with a footnote.[^1] And another.[^long]\n\n[^1]: The first note.\n[^long]: A longer note with *emphasis*.\n",
    ["Text with a footnote.", "The first note.", "A longer note with emphasis."],
  );
  const longLine = `const value = ${'"x".repeat(10) + '.repeat(40)}"end";`;
  add(
    "md-code-tabs-long.md",
    `\`\`\`js\nfunction f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n${longLine}\n\`\`\`\n`,
    ["function f()", "return 1;", '"end";'],
  );
  const url = `https://example.com/${"averyveryverylongpathsegmentwithoutanybreakpoints".repeat(4)}?q=${"z".repeat(80)}`;
  add("md-long-url.md", `See ${url} for details.\n\n<${url}>\n`, ["See", "for details.", url]);
  add(
    "md-html.md",
    `<div align="center"><b>Bold HTML</b> and <i>italic</i></div>\n\n<script>document.write("SCRIPT-RAN")</script>\n\nInline <span style="color:red">red</span> and <kbd>Ctrl</kbd>.\n\n<img src="${remote}/tracker.png" alt="remote-alt">\n\n<details><summary>More</summary>Hidden body</details>\n`,
    ["Bold HTML", "italic", "Inline red and Ctrl."],
    { absent: ["SCRIPT-RAN", "document.write"] },
  );
  const dataPng =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  add(
    "md-images.md",
    `Remote: ![remote picture](${remote}/photo.jpg)\n\nData: ![data picture](${dataPng})\n\nEnd of images.\n`,
    ["Remote:", "Data:", "End of images."],
  );
  add(
    "md-front-matter.md",
    "---\ntitle: Front matter title\ntags: [a, b]\n---\n\n# Heading after front matter\n\nBody text.\n",
    ["Heading after front matter", "Body text."],
  );
  const body = "# Line endings\n\nFirst paragraph.\nSame paragraph.\n\n- item one\n- item two\n";
  add("md-crlf.md", body.replaceAll("\n", "\r\n"), ["Line endings", "First paragraph.", "item two"]);
  add("md-cr.md", body.replaceAll("\n", "\r"), ["Line endings", "First paragraph.", "item two"]);
  docs.push({
    name: "md-utf8-bom.md",
    bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("# BOM heading\n\nCafé crème.\n")]),
    phrases: ["BOM heading", "Café crème."],
  });
  const accented = "# Résumé\n\nCafé, naïve, façade, Ærø, Øre, ß, ¿qué?, 25 °C, 5 € — «guillemets».\n";
  docs.push({
    name: "md-utf16le.md",
    bytes: utf16WithMark(accented, "le"),
    phrases: ["Résumé", "Café, naïve, façade"],
  });
  docs.push({
    name: "md-utf16be.md",
    bytes: utf16WithMark(accented, "be"),
    phrases: ["Résumé", "Café, naïve, façade"],
  });
  docs.push({
    name: "md-utf16le-hindi.md",
    bytes: utf16WithMark("# हिन्दी\n\nयह UTF-16 में है।\n", "le"),
    phrases: ["हिन्दी", "यह UTF-16 में है।"],
  });
  docs.push({
    name: "md-latin1.md",
    bytes: latin1("# Résumé\n\nCafé, naïve, façade, 25 °C, ¿qué?\n"),
    phrases: ["Résumé", "Café, naïve, façade"],
    // Refused by design (tests/unit/file-kinds.test.ts): not UTF-8, and no mark says what it is.
    refusal: "UNSUPPORTED_FILE_TYPE",
  });
  docs.push({
    name: "md-cp1252.md",
    bytes: Uint8Array.from([
      ...latin1("# Quotes\n\nIt"),
      0x92,
      ...latin1("s 5 "),
      0x80,
      ...latin1(" "),
      0x93,
      ...latin1("quoted"),
      0x94,
      0x0a,
    ]),
    phrases: ["Quotes", "It’s 5 € “quoted”"],
    refusal: "UNSUPPORTED_FILE_TYPE",
  });
  docs.push({ name: "md-empty.md", bytes: new Uint8Array(0), phrases: [], refusal: "any" });
  add("md-whitespace-only.md", "\n\n   \n\t\n", [], { refusal: "any" });
  return docs;
}

/**
 * The characters drawn with glyph 0 (.notdef, a box or nothing: tofu) when MuPDF runs the pages,
 * with the font that lacks them.
 */
function tofu(pdf: Uint8Array): string {
  const document = mupdf.Document.openDocument(pdf, "application/pdf");
  const missing = new Set<string>();
  const device = new mupdf.Device({
    fillText(text) {
      text.walk({
        showGlyph(font, _trm, glyph, unicode) {
          if (glyph === 0 && unicode > 32)
            missing.add(`${String.fromCodePoint(unicode)} (${font.getName()})`);
        },
      });
    },
  });
  for (let i = 0; i < document.countPages(); i++) document.loadPage(i).run(device, mupdf.Matrix.identity);
  return [...missing].join(", ");
}

const squeeze = (text: string) => text.replace(/\s+/g, "");

async function markdownProblem(
  doc: MarkdownInput,
  pdf: Uint8Array,
  fetched: () => number,
): Promise<string | null> {
  const problem = await checkPdf(pdf, undefined);
  if (problem) return problem;
  const text = (await execOn("pdftotext", ["-enc", "UTF-8", "{}", "-"], pdf)).stdout.normalize("NFC");
  const layout = (await execOn("pdftotext", ["-layout", "-enc", "UTF-8", "{}", "-"], pdf)).stdout.normalize(
    "NFC",
  );
  const problems: string[] = [];
  const lost = missingCharacters(doc.phrases.join("").normalize("NFC"), text);
  if (lost) problems.push(`pdftotext misses "${[...new Set(lost)].join("").slice(0, 40)}"`);
  for (const phrase of doc.phrases)
    if (!squeeze(text).includes(squeeze(phrase.normalize("NFC"))) && !lost)
      problems.push(`phrase out of order: "${phrase.slice(0, 30)}"`);
  for (const absent of doc.absent ?? []) if (text.includes(absent)) problems.push(`holds "${absent}"`);
  for (const row of doc.rows ?? []) {
    const line = layout.split("\n").find((l) => l.includes(row[0] ?? ""));
    const at = row.map((cell) => line?.indexOf(cell) ?? -1);
    if (at.some((p, i) => p < 0 || (i > 0 && p <= (at[i - 1] ?? 0))))
      problems.push(`table row ${row[0]}… not in order on one line: "${line?.trim().slice(0, 60)}"`);
  }
  const notDrawn = tofu(pdf);
  if (notDrawn) problems.push(`no glyph (tofu) for "${notDrawn.slice(0, 30)}"`);
  if (fetched() > 0) problems.push(`${fetched()} remote request(s) made`);
  return problems.length ? problems.join("; ") : null;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      match: { type: "string" },
      tool: { type: "string" },
      keep: { type: "string" },
      concurrency: { type: "string", default: "2" },
      timeout: { type: "string", default: "180" },
      "no-ocr": { type: "boolean", default: false },
    },
  });
  const work = mkdtempSync(join(tmpdir(), "outside-images-"));
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  const remote = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  try {
    const matches = (name: string) => values.match === undefined || new RegExp(values.match).test(name);
    const wanted = values.tool?.split(",");
    const toolWanted = (tool: string) =>
      (wanted === undefined || wanted.includes(tool)) && !(values["no-ocr"] && tool === "ocr");
    console.log("Building inputs…");
    const images = (await imageInputs(work)).filter((input) => matches(input.name));
    const markdown = toolWanted("markdown-to-pdf")
      ? markdownInputs(remote).filter((d) => matches(d.name))
      : [];
    const dir = values.keep ?? join(work, "inputs");
    mkdirSync(dir, { recursive: true });
    const jobs: SweepJob[] = [];
    const references = { pdfs: new Map(), images: new Map<string, ImageReference>() };
    for (const input of images) {
      const file = join(dir, input.name);
      writeFileSync(file, input.bytes);
      const referenceBytes = input.reference ?? input.bytes;
      const reference = await imageReference(referenceBytes);
      references.images.set(file, reference);
      const kind = (kindOf(input.name) ?? reference.kind) as ImageKind | undefined;
      const sent = kind ?? "png";
      for (const job of imageJobs(file, sent, reference)) {
        if (!toolWanted(job.tool)) continue;
        jobs.push({
          ...job,
          check: async (out) => {
            if (values.keep !== undefined) writeFileSync(`${file}.${job.tool}.out`, out);
            return (
              (await job.check(out)) ??
              (reference.decodes ? qualityProblem(job.tool, input, out, referenceBytes) : null)
            );
          },
        });
      }
      // Kinds no tool lists (SVG, ICO) go to the tools a user would try them with.
      if (kind === undefined)
        for (const job of imageJobs(file, "png", reference))
          if (toolWanted(job.tool) && job.tool !== "ocr") jobs.push(job);
    }
    for (const doc of markdown) {
      const file = join(dir, doc.name);
      writeFileSync(file, doc.bytes);
      const before = () => requests.length;
      let start = 0;
      jobs.push({
        tool: "markdown-to-pdf",
        file,
        kind: "pdf",
        path: TOOLS["markdown-to-pdf"].endpoint.path,
        form: () => {
          start = before();
          return taskForm("file", [{ name: doc.name, bytes: doc.bytes, type: "text/markdown" }]);
        },
        check: (out) => {
          if (values.keep !== undefined) writeFileSync(`${file}.pdf`, out);
          return markdownProblem(doc, out, () => requests.length - start);
        },
        agrees: (code) =>
          doc.refusal === "any" || doc.refusal === code ? `a named refusal expected (${code})` : null,
      });
    }
    console.log(
      `${images.length} images, ${markdown.length} Markdown files, ${jobs.length} jobs (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    const timeoutMs = Number(values.timeout) * 1000;
    const results = await withStack({ raiseLimits: true }, async (url) => {
      const client = new BenchClient(url);
      return runPool(
        jobs,
        Number(values.concurrency),
        (job) => runJob(client, job, timeoutMs, references),
        (r, n) => {
          if (r.verdict === "defect")
            process.stderr.write(
              `[${n}/${jobs.length}] DEFECT ${r.tool} ${r.file} ${r.outcome}: ${r.detail}\n`,
            );
        },
      );
    });
    printMatrix(results);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    server.close();
    if (values.keep === undefined) rmSync(work, { recursive: true, force: true });
  }
}

const kindOf = (name: string): ImageKind | undefined => EXTENSION_KINDS[name.split(".").at(-1) ?? ""];

/** Inputs × tools: V valid, A agreed error (its code), D defect; then each defect. */
function printMatrix(results: readonly SweepResult[]): void {
  const tools = [...new Set(results.map((r) => r.tool))].sort();
  const files = [...new Set(results.map((r) => r.file.split("/").at(-1) ?? r.file))];
  const cell = (file: string, tool: string) => {
    const r = results.find((x) => x.tool === tool && x.file.endsWith(`/${file}`));
    if (!r) return "";
    return r.verdict === "valid" ? "V" : r.verdict === "agreed" ? `A:${r.outcome}` : `D:${r.outcome}`;
  };
  const width = Math.max(...files.map((f) => f.length));
  console.log(`\n${"input".padEnd(width)}  ${tools.map((t) => t.padEnd(16)).join(" ")}`);
  for (const file of files)
    console.log(`${file.padEnd(width)}  ${tools.map((t) => cell(file, t).padEnd(16)).join(" ")}`);
  for (const tool of tools) {
    const mine = results.filter((r) => r.tool === tool);
    const count = (v: string) => mine.filter((r) => r.verdict === v).length;
    console.log(
      `${tool}: ${mine.length} inputs, ${count("valid")} valid, ${count("agreed")} agreed, ${count("defect")} defects`,
    );
  }
  const defects = results.filter((r) => r.verdict === "defect");
  console.log(`\n${defects.length} defects`);
  for (const d of defects)
    console.log(`DEFECT ${d.tool} ${d.file.split("/").at(-1)}: ${d.outcome} — ${d.detail}`);
}

await main();
