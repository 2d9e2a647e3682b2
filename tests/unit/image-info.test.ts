/**
 * Image headers read without decoding (engines/image/image-info.ts) and the edge budget built on
 * them: headers built byte by byte here, and the real files of ../shared/corpus/img compared with
 * what sharp (libvips) reports.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError, TOOLS } from "../../contract/index.ts";
import { fitsEdgeBudget } from "../../engines/edge-budget.ts";
import { EDGE_WASM_HEAP_BYTES, jobHeapEstimate } from "../../engines/image/edge-heap.ts";
import { isSrgbProfile } from "../../engines/image/icc-profile.ts";
import { wasmCodecsFor } from "../../engines/image/image-codecs.ts";
import { convertibleAtEdge, readImageInfo } from "../../engines/image/image-info.ts";
import type { EngineInput } from "../../engines/types.ts";

const CORPUS = resolve(import.meta.dirname, "../../../shared/corpus/img");
const EDGE_BUDGET = TOOLS["png-to-jpg"].engine.edgeBudget;
const bytes = (...parts: (number[] | string | Uint8Array)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : [...p])));
const u32be = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16be = (n: number) => [n >> 8, n & 255];
const u16le = (n: number) => [n & 255, n >> 8];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24];

/** PNG chunk (CRC left zero: the header reader does not check CRCs, as browsers do not). */
const chunk = (type: string, data: number[] | Uint8Array = []) =>
  bytes(u32be(data.length), type, data, [0, 0, 0, 0]);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ihdr = (w: number, h: number, depth = 8, type = 6) =>
  chunk("IHDR", [...u32be(w), ...u32be(h), depth, type, 0, 0, 0]);
const png = (...chunks: Uint8Array[]) => bytes(PNG_SIGNATURE, ...chunks);

/** TIFF block with IFD0 holding only Orientation, in either byte order. */
function tiffOrientation(value: number, bigEndian: boolean): number[] {
  const [u16, u32] = bigEndian ? [u16be, u32be] : [u16le, u32le];
  return [
    ...bytes(bigEndian ? "MM" : "II"),
    ...u16(42),
    ...u32(8),
    ...u16(1),
    ...u16(0x0112),
    ...u16(3),
    ...u32(1),
    ...u16(value),
    0,
    0,
    ...u32(0),
  ];
}

function jpeg(options: {
  width: number;
  height: number;
  sof?: number;
  exif?: number[];
  fill?: boolean;
}): Uint8Array {
  const segment = (marker: number, data: number[]) => [0xff, marker, ...u16be(data.length + 2), ...data];
  return bytes(
    [0xff, 0xd8],
    segment(0xe0, [...bytes("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    options.exif ? segment(0xe1, [...bytes("Exif\0\0"), ...options.exif]) : [],
    options.fill ? [0xff, 0xff] : [],
    segment(options.sof ?? 0xc0, [8, ...u16be(options.height), ...u16be(options.width), 1, 1, 0x11, 0]),
    segment(0xda, [1, 1, 0, 0, 63, 0]),
    [0x12, 0x34, 0xff, 0xd9],
  );
}

const riff = (...chunks: number[][]) => {
  const body = bytes("WEBP", ...chunks.map((c) => new Uint8Array(c)));
  return bytes("RIFF", u32le(body.length), body);
};
const riffChunk = (type: string, data: number[]) => [
  ...bytes(type),
  ...u32le(data.length),
  ...data,
  ...(data.length % 2 ? [0] : []),
];

function expectCode(read: () => unknown, code: string): void {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe("readImageInfo on headers built in code", () => {
  it("reads PNG size, alpha from the colour type or tRNS, and orientation from eXIf before IDAT", () => {
    const idat = chunk("IDAT", [0x78, 0x9c]);
    expect(readImageInfo(png(ihdr(640, 480, 8, 2), idat))).toMatchObject({
      kind: "png",
      width: 640,
      height: 480,
      orientation: 1,
      hasAlpha: false,
    });
    expect(readImageInfo(png(ihdr(3, 4, 16, 6), idat)).hasAlpha).toBe(true);
    expect(readImageInfo(png(ihdr(3, 4, 8, 4), idat)).hasAlpha).toBe(true);
    const palette = chunk("PLTE", [0, 0, 0, 255, 255, 255]);
    expect(readImageInfo(png(ihdr(3, 4, 1, 3), palette, idat)).hasAlpha).toBe(false);
    expect(readImageInfo(png(ihdr(3, 4, 1, 3), palette, chunk("tRNS", [0]), idat)).hasAlpha).toBe(true);
    const exif = chunk("eXIf", tiffOrientation(6, true));
    expect(readImageInfo(png(ihdr(30, 20), exif, idat, chunk("IEND"))).orientation).toBe(6);
    expect(readImageInfo(png(ihdr(30, 20), idat, exif, chunk("IEND"))).orientation).toBe(1);
  });

  it("rejects damaged PNG headers", () => {
    const idat = chunk("IDAT", [0x78, 0x9c]);
    expectCode(() => readImageInfo(png(ihdr(0, 10), idat)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(ihdr(10, 10, 3, 2), idat)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(ihdr(10, 10, 8, 5), idat)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(ihdr(10, 10, 8, 3), idat)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(chunk("gAMA", [0, 0, 0, 1]), ihdr(10, 10), idat)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(ihdr(10, 10)).subarray(0, 20)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(png(ihdr(10, 10))), "IMAGE_DAMAGED");
  });

  it("reads JPEG size from baseline and progressive frames and orientation from EXIF in either byte order", () => {
    expect(readImageInfo(jpeg({ width: 800, height: 600 }))).toMatchObject({
      kind: "jpeg",
      width: 800,
      height: 600,
      orientation: 1,
      hasAlpha: false,
    });
    expect(readImageInfo(jpeg({ width: 7, height: 9, sof: 0xc2, fill: true }))).toMatchObject({
      width: 7,
      height: 9,
    });
    expect(readImageInfo(jpeg({ width: 7, height: 9, exif: tiffOrientation(8, true) })).orientation).toBe(8);
    expect(readImageInfo(jpeg({ width: 7, height: 9, exif: tiffOrientation(3, false) })).orientation).toBe(3);
    expect(readImageInfo(jpeg({ width: 7, height: 9, exif: tiffOrientation(42, false) })).orientation).toBe(
      1,
    );
    expect(readImageInfo(jpeg({ width: 7, height: 9, exif: [1, 2, 3] })).orientation).toBe(1);
  });

  it("rejects damaged JPEG headers", () => {
    const valid = jpeg({ width: 800, height: 600 });
    expectCode(() => readImageInfo(valid.subarray(0, 30)), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(jpeg({ width: 800, height: 0 })), "IMAGE_DAMAGED");
    expectCode(
      () => readImageInfo(bytes([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0])),
      "IMAGE_DAMAGED",
    );
    expectCode(() => readImageInfo(bytes([0xff, 0xd8, 0xff, 0xe0, 0x40, 0])), "IMAGE_DAMAGED");
  });

  it("reads WebP lossy, lossless and extended headers", () => {
    const vp8 = riffChunk("VP8 ", [0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(1024), ...u16le(772), 0, 0]);
    expect(readImageInfo(riff(vp8))).toMatchObject({
      kind: "webp",
      width: 1024,
      height: 772,
      orientation: 1,
      hasAlpha: false,
    });
    const vp8l = riffChunk("VP8L", [0x2f, ...u32le(299 | (199 << 14) | (1 << 28))]);
    expect(readImageInfo(riff(vp8l))).toMatchObject({
      kind: "webp",
      width: 300,
      height: 200,
      orientation: 1,
      hasAlpha: true,
    });
    const vp8x = riffChunk("VP8X", [0x18, 0, 0, 0, 4999 & 255, 4999 >> 8, 0, 2999 & 255, 2999 >> 8, 0]);
    const exif = riffChunk("EXIF", tiffOrientation(5, false));
    expect(readImageInfo(riff(vp8x, vp8, exif))).toMatchObject({
      kind: "webp",
      width: 5000,
      height: 3000,
      orientation: 5,
      hasAlpha: true,
    });
  });

  it("rejects damaged WebP headers", () => {
    expectCode(
      () => readImageInfo(riff(riffChunk("VP8 ", [0x50, 0x01, 0, 0x9d, 0x01, 0x2b, 1, 0, 1, 0]))),
      "IMAGE_DAMAGED",
    );
    expectCode(() => readImageInfo(riff(riffChunk("VP8L", [0x2f, 0, 0, 0, 0xe0]))), "IMAGE_DAMAGED");
    expectCode(() => readImageInfo(riff(riffChunk("ABCD", [1, 2, 3, 4, 5, 6, 7, 8]))), "IMAGE_DAMAGED");
    expectCode(
      () => readImageInfo(riff(riffChunk("VP8X", [0, 0, 0, 0, 1, 0, 0, 1, 0, 0])).subarray(0, 24)),
      "IMAGE_DAMAGED",
    );
  });

  it("reads GIF logical screen size and transparency from the first graphic control extension", () => {
    const gif = (gce: number[]) =>
      bytes("GIF89a", u16le(320), u16le(240), [0x80, 0, 0], new Array(6).fill(0), gce, [0x2c]);
    expect(readImageInfo(gif([0x21, 0xf9, 4, 1, 0, 0, 0, 0]))).toMatchObject({
      kind: "gif",
      width: 320,
      height: 240,
      orientation: 1,
      hasAlpha: true,
    });
    expect(readImageInfo(gif([0x21, 0xf9, 4, 0, 0, 0, 0, 0])).hasAlpha).toBe(false);
    expect(readImageInfo(gif([])).hasAlpha).toBe(false);
    expectCode(
      () => readImageInfo(bytes("GIF87a", u16le(0), u16le(240), [0, 0, 0], [0x2c])),
      "IMAGE_DAMAGED",
    );
    expectCode(() => readImageInfo(gif([]).subarray(0, 15)), "IMAGE_DAMAGED");
  });

  it("answers UNSUPPORTED_FILE_TYPE for bytes of no image kind", () => {
    expectCode(() => readImageInfo(bytes("%PDF-1.7\n")), "UNSUPPORTED_FILE_TYPE");
    expectCode(() => readImageInfo(new Uint8Array()), "UNSUPPORTED_FILE_TYPE");
  });
});

describe("fitsEdgeBudget", () => {
  const input = (data: Uint8Array, kind: EngineInput["kind"] = "png"): EngineInput => ({
    name: "x",
    kind,
    bytes: data,
  });
  const idat = chunk("IDAT", [0x78, 0x9c]);

  /** Rows of a 2000-pixel-wide image that exactly fill the declared pixel budget. */
  const budgetRows = Math.floor(EDGE_BUDGET.maxPixels / 2000);

  it("accepts edge tools whose every input is within the byte and pixel budget", () => {
    expect(fitsEdgeBudget("png-to-jpg", [input(png(ihdr(2000, budgetRows), idat))])).toBe(true);
    expect(fitsEdgeBudget("jpg-to-png", [input(jpeg({ width: 1000, height: 1000 }), "jpeg")])).toBe(true);
  });

  it("refuses over-budget pixels, bytes, unreadable headers and container tools", () => {
    expect(fitsEdgeBudget("png-to-jpg", [input(png(ihdr(2000, budgetRows + 1), idat))])).toBe(false);
    const padded = new Uint8Array(EDGE_BUDGET.maxBytes + 1);
    padded.set(png(ihdr(10, 10), idat));
    expect(fitsEdgeBudget("png-to-jpg", [input(padded)])).toBe(false);
    expect(fitsEdgeBudget("png-to-jpg", [input(png(ihdr(0, 10), idat))])).toBe(false);
    expect(
      fitsEdgeBudget("png-to-jpg", [input(png(ihdr(10, 10), idat)), input(png(ihdr(5000, 5000), idat))]),
    ).toBe(false);
    expect(fitsEdgeBudget("images-to-pdf", [input(png(ihdr(10, 10), idat))])).toBe(false);
  });

  it("sends lossless, hierarchical and arithmetic-coded JPEGs to the container, whose decoder reads them", () => {
    for (const sof of [0xc0, 0xc1, 0xc2]) {
      expect(fitsEdgeBudget("jpg-to-png", [input(jpeg({ width: 227, height: 149, sof }), "jpeg")])).toBe(
        true,
      );
    }
    // SOF3 lossless (as libjpeg's testimgl.jpg), SOF5–7 hierarchical, SOF9–15 arithmetic.
    for (const sof of [0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]) {
      expect(readImageInfo(jpeg({ width: 227, height: 149, sof }))).toMatchObject({
        width: 227,
        height: 149,
      });
      expect(fitsEdgeBudget("jpg-to-png", [input(jpeg({ width: 227, height: 149, sof }), "jpeg")])).toBe(
        false,
      );
    }
  });
});

const corpusFiles = existsSync(CORPUS)
  ? readdirSync(CORPUS).filter((f) => /\.(png|jpe?g|webp|gif)$/.test(f))
  : [];

describe.skipIf(corpusFiles.length === 0)("readImageInfo on the corpus", () => {
  // Without the corpus one case stands for the files, so the summary counts it as skipped.
  it.each(corpusFiles.length > 0 ? corpusFiles : ["(../shared/corpus/img absent)"])(
    "%s: size, orientation and alpha match sharp",
    async (file) => {
      const data = new Uint8Array(readFileSync(join(CORPUS, file)));
      const info = readImageInfo(data);
      const meta = await sharp(data).metadata();
      expect(info.kind).toBe(meta.format);
      expect([info.width, info.height, info.orientation]).toEqual([
        meta.width,
        meta.height,
        meta.orientation ?? 1,
      ]);
      expect(info.hasAlpha).toBe(meta.hasAlpha);
      // Grey as libvips reads it; a colour transform for CMYK and profiles other than sRGB.
      expect(info.grey).toBe(meta.channels - (meta.hasAlpha ? 1 : 0) === 1);
      expect(info.colourTransform).toBe(
        meta.space === "cmyk" || (meta.icc !== undefined && !isSrgbProfile(new Uint8Array(meta.icc))),
      );
      const pixels = info.width * info.height;
      const heap = jobHeapEstimate(wasmCodecsFor(info.kind, "jpeg"), pixels, data.length);
      const fits =
        pixels <= EDGE_BUDGET.maxPixels &&
        data.length <= EDGE_BUDGET.maxBytes &&
        convertibleAtEdge(info) &&
        heap <= EDGE_WASM_HEAP_BYTES;
      expect(fitsEdgeBudget("png-to-jpg", [{ name: file, kind: info.kind, bytes: data }])).toBe(fits);
    },
  );
});
