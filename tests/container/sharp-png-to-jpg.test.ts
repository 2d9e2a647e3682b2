import { crc32 } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError, QUALITY_PRESETS } from "../../contract/index.ts";
import { compressImage } from "../../engines/image/compress-image.ts";
import { SHARP_MAX_PIXELS, sharpPngToJpg } from "../../engines/image/sharp-png-to-jpg.ts";
import { makeLyingPng } from "../worker/fixtures.ts";
import { halfTransparentPng, rotatedPng } from "./fixtures.ts";

function convert(bytes: Uint8Array, quality: "low" | "medium" | "high" = "medium") {
  return sharpPngToJpg([{ name: "in.png", kind: "png", bytes }], { quality }, () => {});
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "none",
    (error: unknown) => (error instanceof AppError ? error.code : "other"),
  );
}

describe("sharpPngToJpg", () => {
  it("flattens transparent pixels onto white", async () => {
    const output = await convert(await halfTransparentPng(64, 32));
    const { data, info } = await sharp(output.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ format: "raw", width: 64, height: 32, channels: 3 });
    const pixel = (x: number, y: number) => [...data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    // Right half was transparent (hidden colour black): white now, within JPEG error.
    for (const value of pixel(56, 16)) expect(value).toBeGreaterThan(245);
    const [red, green, blue] = pixel(8, 16);
    expect(red).toBeGreaterThan(230);
    expect(Math.max(green ?? 255, blue ?? 255)).toBeLessThan(30);
    expect(output.facts).toMatchObject({ width: 64, height: 32 });
  });

  it("applies the EXIF orientation: a quarter turn swaps width and height", async () => {
    const output = await convert(await rotatedPng(80, 40));
    const metadata = await sharp(output.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", 40, 80]);
    expect(metadata.orientation ?? 1).toBe(1);
    expect(output.facts).toMatchObject({ width: 40, height: 80 });
  });

  it("writes progressive MozJPEG with 4:2:0 chroma, smaller at lower quality", async () => {
    const png = await sharp({
      create: {
        width: 256,
        height: 256,
        channels: 3,
        background: "#336699",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const sizes: number[] = [];
    for (const quality of ["low", "medium", "high"] as const) {
      const output = await convert(new Uint8Array(png), quality);
      const metadata = await sharp(output.bytes).metadata();
      expect(metadata.chromaSubsampling).toBe("4:2:0");
      // sharp writes baseline JPEG unless MozJPEG (progressive, trellis) is on.
      expect(metadata.isProgressive).toBe(true);
      sizes.push(output.bytes.length);
    }
    expect(QUALITY_PRESETS.low).toBeLessThan(QUALITY_PRESETS.high);
    expect(sizes[0]).toBeLessThan(sizes[1] ?? 0);
    expect(sizes[1]).toBeLessThan(sizes[2] ?? 0);
  });

  it("refuses an undecodable or truncated PNG as damaged", async () => {
    const png = await halfTransparentPng(64, 64);
    const garbage = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await codeOf(convert(garbage))).toBe("IMAGE_DAMAGED");
    expect(await codeOf(convert(png.subarray(0, Math.floor(png.length / 2))))).toBe("IMAGE_DAMAGED");
  });

  it("refuses a PNG whose header claims 20000×20000 from the header alone, with a fixed message", async () => {
    const png = new Uint8Array(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } })
        .png()
        .toBuffer(),
    );
    // IHDR is the first chunk: length (4), type (4), width (4), height (4) … then its CRC.
    const view = new DataView(png.buffer, png.byteOffset);
    view.setUint32(16, 20_000);
    view.setUint32(20, 20_000);
    view.setUint32(29, crc32(png.subarray(12, 29)));
    const error = await convert(png).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AppError);
    const body = (error as AppError).toBody();
    expect(body).toEqual({
      code: "IMAGE_TOO_LARGE",
      message: `The image exceeds ${SHARP_MAX_PIXELS} pixels.`,
      context: { width: 20_000, height: 20_000, maxPixels: SHARP_MAX_PIXELS },
    });
  });

  it("keeps libvips' text out of the message of a damaged PNG (detail only)", async () => {
    const png = await halfTransparentPng(64, 64);
    const error = await convert(png.subarray(0, Math.floor(png.length / 2))).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toEqual({
      code: "IMAGE_DAMAGED",
      message: "The PNG could not be decoded.",
    });
    expect((error as AppError).detail).toBeTruthy();
  });

  it("refuses a PNG whose image data inflates far beyond its declared size, as the edge does", async () => {
    // libvips reads only the declared rows and would call this 100×100 image a success.
    const lying = await makeLyingPng(100, 100, 64 * 1024 * 1024);
    expect(await codeOf(convert(lying))).toBe("IMAGE_DAMAGED");
    const compressed = compressImage(
      [{ name: "in.png", kind: "png", bytes: lying }],
      { quality: "medium" },
      () => {},
    );
    expect(await codeOf(compressed)).toBe("IMAGE_DAMAGED");
  });

  it("refuses images over the pixel limit before decoding them", async () => {
    const side = Math.ceil(Math.sqrt(SHARP_MAX_PIXELS)) + 1;
    // A one-colour PNG compresses to almost nothing: only the header says how big it is.
    const huge = await sharp({ create: { width: side, height: side, channels: 3, background: "#fff" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(await codeOf(convert(new Uint8Array(huge)))).toBe("IMAGE_TOO_LARGE");
  });
});
