/**
 * The Worker's early pixel check (worker/uploads/image-head.ts) reads an image's size from at most
 * the first 64 KiB of the upload, whatever follows: a lossy WebP whose `VP8 ` chunk is megabytes
 * long, an extended WebP with EXIF after its image data, a GIF with a long comment. A JPEG whose
 * frame header lies beyond is left to the engine, which reads it from the whole file before decoding.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { readImageInfo } from "../../engines/image/image-info.ts";
import { imageHeadSize, MAX_IMAGE_HEAD_BYTES } from "../../worker/uploads/image-head.ts";

const MB = 1024 * 1024;

/** A plain 4096×4096 picture: encoded small and fast. */
const largePicture = () =>
  sharp({ create: { width: 4096, height: 4096, channels: 3, background: { r: 40, g: 120, b: 200 } } });

/**
 * Lengthens a simple WebP's single chunk to `total` bytes (decoders ignore bytes after the
 * bitstream's partitions), as a detailed photo of that size would be.
 */
function lengthenFirstChunk(webp: Uint8Array, total: number): Uint8Array {
  const view = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
  const size = view.getUint32(16, true);
  const out = new Uint8Array(total);
  out.set(webp.subarray(0, 20 + size));
  const outView = new DataView(out.buffer);
  outView.setUint32(16, total - 20, true);
  outView.setUint32(4, total - 8, true);
  return out;
}

/** Appends a RIFF chunk to a WebP and fixes the RIFF size. */
function appendChunk(webp: Uint8Array, type: string, data: Uint8Array): Uint8Array {
  const padded = data.length + (data.length % 2);
  const out = new Uint8Array(webp.length + 8 + padded);
  out.set(webp);
  out.set(new TextEncoder().encode(type), webp.length);
  const view = new DataView(out.buffer);
  view.setUint32(webp.length + 4, data.length, true);
  out.set(data, webp.length + 8);
  view.setUint32(4, out.length - 8, true);
  return out;
}

const files: Record<string, Uint8Array> = {};

beforeAll(async () => {
  const picture = largePicture();
  files.lossy = lengthenFirstChunk(
    new Uint8Array(await picture.clone().webp({ quality: 50, effort: 0 }).toBuffer()),
    4 * MB,
  );
  files.lossless = lengthenFirstChunk(
    new Uint8Array(await picture.clone().webp({ lossless: true, effort: 0 }).toBuffer()),
    3 * MB,
  );
  // Extended: EXIF (orientation 6) is written after the image data.
  const extended = new Uint8Array(
    await picture.clone().webp({ quality: 50, effort: 0 }).withMetadata({ orientation: 6 }).toBuffer(),
  );
  files.extended = extended;
}, 60_000);

describe("an image's size from the first 64 KiB of its upload", () => {
  it("reads a 4096×4096 lossy WebP whose VP8 chunk is 4 MB long", async () => {
    const lossy = files.lossy ?? new Uint8Array();
    expect(await sharp(lossy).metadata()).toMatchObject({ format: "webp", width: 4096, height: 4096 });
    const head = lossy.subarray(0, MAX_IMAGE_HEAD_BYTES);
    expect(imageHeadSize(head, false, "webp")).toEqual({ width: 4096, height: 4096 });
    expect(imageHeadSize(lossy.subarray(0, 4096), false, "webp")).toEqual({ width: 4096, height: 4096 });
    expect(readImageInfo(lossy)).toMatchObject({ kind: "webp", width: 4096, height: 4096, orientation: 1 });
  });

  it("reads a lossless WebP whose VP8L chunk is 3 MB long", () => {
    const head = (files.lossless ?? new Uint8Array()).subarray(0, 4096);
    expect(imageHeadSize(head, false, "webp")).toEqual({ width: 4096, height: 4096 });
  });

  it("reads an extended WebP's size without its EXIF chunk, and the orientation from the whole file", () => {
    const extended = files.extended ?? new Uint8Array();
    // Push the EXIF chunk past 64 KiB, after a long XMP chunk the flags do not announce.
    const long = appendChunk(extended, "XMP ", new Uint8Array(200_000).fill(0x20));
    expect(imageHeadSize(long.subarray(0, 4096), false, "webp")).toEqual({ width: 4096, height: 4096 });
    expect(readImageInfo(extended)).toMatchObject({ width: 4096, height: 4096, orientation: 6 });
  });

  it("finds a pixel bomb's size in a WebP's first 30 bytes", () => {
    // VP8X declaring 16384×16384 (268 MP), nothing after it.
    const head = new Uint8Array(30);
    head.set([..."RIFF"].map((c) => c.charCodeAt(0)));
    new DataView(head.buffer).setUint32(4, 50_000_000, true);
    head.set(
      [..."WEBPVP8X"].map((c) => c.charCodeAt(0)),
      8,
    );
    head.set([10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0x3f, 0, 0xff, 0x3f, 0], 16);
    expect(imageHeadSize(head, false, "webp")).toEqual({ width: 16384, height: 16384 });
  });

  it("reads a GIF's logical screen whatever extensions follow it", () => {
    const head = new Uint8Array(4096);
    head.set([..."GIF89a"].map((c) => c.charCodeAt(0)));
    head.set([0x40, 0x1f, 0x40, 0x1f, 0, 0, 0, 0x21, 0xfe, 0xff], 6); // 8000×8000, a comment
    expect(imageHeadSize(head, false, "gif")).toEqual({ width: 8000, height: 8000 });
  });

  it("leaves a JPEG whose frame header lies past 64 KiB to the engine, refuses a cut PNG", async () => {
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 30, height: 20, channels: 3, background: "red" } })
        .jpeg()
        .toBuffer(),
    );
    // Three APP2 segments of 30 000 bytes before the rest of the header.
    const app = new Uint8Array(30_004);
    app.set([0xff, 0xe2, 30_002 >> 8, 30_002 & 255]);
    const big = new Uint8Array([...jpeg.subarray(0, 2), ...app, ...app, ...app, ...jpeg.subarray(2)]);
    expect(imageHeadSize(big.subarray(0, 4096), false, "jpeg")).toBeNull();
    expect(imageHeadSize(big.subarray(0, MAX_IMAGE_HEAD_BYTES), false, "jpeg")).toBe("container");
    expect(imageHeadSize(big, true, "jpeg")).toEqual({ width: 30, height: 20 });
    const png = new Uint8Array(
      await sharp({ create: { width: 3, height: 2, channels: 3, background: "red" } })
        .png()
        .toBuffer(),
    );
    expect(() => imageHeadSize(png.subarray(0, 20), true, "png")).toThrow(AppError);
    expect(imageHeadSize(png.subarray(0, 24), false, "png")).toEqual({ width: 3, height: 2 });
  });
});
