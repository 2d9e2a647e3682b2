/**
 * The PNG checks that run before the decoders (engines/image/png-chunks.ts, png-image-data.ts,
 * inflate.ts), on PNGs written by sharp (libpng) and on hand-made image data.
 */
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { inflate } from "../../engines/image/inflate.ts";
import { readPngLayout } from "../../engines/image/png-chunks.ts";
import { decodePngPixels } from "../../engines/image/png-decode.ts";
import {
  checkPngDataSize,
  checkPngImageData,
  pngImageDataSize,
  pngRowRuns,
} from "../../engines/image/png-image-data.ts";
import { makeLyingPng, makePng } from "../worker/fixtures.ts";

const header = (width: number, height: number, colorType: 0 | 2 | 6, bitDepth = 8, interlaced = false) => ({
  width,
  height,
  colorType,
  bitDepth,
  interlaced,
});

async function sharpPng(width: number, height: number, interlaced: boolean): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + (i >> 7)) & 255;
  const png = await sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ progressive: interlaced, compressionLevel: 9 })
    .toBuffer();
  return new Uint8Array(png);
}

/** A grey 8-bit PNG layout around hand-made zlib image data. */
function layoutWith(width: number, height: number, imageData: Uint8Array) {
  return {
    header: header(width, height, 0),
    palette: undefined,
    transparency: undefined,
    iccp: undefined,
    exif: undefined,
    imageData: [imageData],
    complete: true,
    text: false,
    animated: false,
  };
}

async function damagedMessage(check: Promise<void>): Promise<string> {
  const error = await check.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("IMAGE_DAMAGED");
  return (error as AppError).message;
}

describe("pngRowRuns", () => {
  it("gives one run for a plain image and one per non-empty Adam7 pass", () => {
    expect(pngRowRuns(header(10, 3, 2))).toEqual([{ rowLength: 31, rows: 3 }]);
    expect(pngRowRuns(header(9, 2, 0, 1))).toEqual([{ rowLength: 3, rows: 2 }]);
    expect(pngRowRuns(header(3, 1, 6, 16))).toEqual([{ rowLength: 25, rows: 1 }]);
    expect(pngRowRuns(header(1, 1, 0, 8, true))).toEqual([{ rowLength: 2, rows: 1 }]);
    const passes = pngRowRuns(header(8, 8, 0, 8, true));
    expect(passes.map((p) => p.rowLength - 1)).toEqual([1, 1, 2, 2, 4, 4, 8]);
    expect(passes.map((p) => p.rows)).toEqual([1, 1, 1, 2, 2, 4, 4]);
  });
});

describe("checkPngImageData", () => {
  it.each([false, true])("accepts complete libpng output (interlaced: %s)", async (interlaced) => {
    const png = await sharpPng(301, 97, interlaced);
    const layout = readPngLayout(png);
    expect(layout.header.interlaced).toBe(interlaced);
    await expect(checkPngImageData(layout)).resolves.toBeUndefined();
  });

  it("rejects image data cut short, naming how many rows arrived", async () => {
    const png = await sharpPng(301, 97, false);
    const message = await damagedMessage(checkPngImageData(readPngLayout(png.subarray(0, png.length / 2))));
    expect(message).toMatch(/of 97 rows/);
  });

  it("rejects rows with an unknown filter type", async () => {
    const rows = new Uint8Array(3 * 5).fill(7);
    rows[0] = 0;
    rows[5] = 1;
    rows[10] = 5;
    expect(await damagedMessage(checkPngImageData(layoutWith(4, 3, deflateSync(rows))))).toMatch(
      /row 3 .*filter type 5/,
    );
  });

  it("tolerates what the decoder tolerates after the last row: more data, a bad checksum", async () => {
    for (const [width, height] of [
      [4, 3],
      [900, 700],
    ] as const) {
      const rows = new Uint8Array(height * (width + 1)).map((_, i) =>
        i % (width + 1) === 0 ? 0 : (i * 7) & 255,
      );
      const badChecksum = deflateSync(rows);
      badChecksum[badChecksum.length - 1] = (badChecksum[badChecksum.length - 1] ?? 0) ^ 0xff;
      const accepted = [deflateSync(rows), deflateSync(new Uint8Array(rows.length + 40)), badChecksum];
      for (const data of accepted)
        await expect(checkPngImageData(layoutWith(width, height, data))).resolves.toBeUndefined();
      // The decoder refuses a stream without its checksum (and would leak memory doing so).
      const noChecksum = deflateSync(rows).subarray(0, -4);
      await damagedMessage(checkPngImageData(layoutWith(width, height, noChecksum)));
    }
  });

  it("rejects image data that does not start with a zlib header", async () => {
    const raw = deflateSync(new Uint8Array(15)).subarray(2);
    expect(await damagedMessage(checkPngImageData(layoutWith(4, 3, raw)))).toMatch(/zlib header/);
  });
});

describe("readPngLayout", () => {
  it("rejects image data split by other chunks, which the decoder cannot read", async () => {
    const png = await sharpPng(64, 40, false);
    const idat = png.findIndex((_, i) => String.fromCharCode(...png.subarray(i, i + 4)) === "IDAT") - 4;
    const length = new DataView(png.buffer, png.byteOffset).getUint32(idat);
    const half = Math.floor(length / 2);
    const chunk = (type: string, data: Uint8Array) => {
      const out = new Uint8Array(12 + data.length);
      new DataView(out.buffer).setUint32(0, data.length);
      out.set(new TextEncoder().encode(type), 4);
      out.set(data, 8);
      return out;
    };
    const data = png.subarray(idat + 8, idat + 8 + length);
    const split = new Uint8Array([
      ...png.subarray(0, idat),
      ...chunk("IDAT", data.subarray(0, half)),
      ...chunk("tEXt", new TextEncoder().encode("k\0v")),
      ...chunk("IDAT", data.subarray(half)),
      ...png.subarray(idat + 12 + length),
    ]);
    expect(() => readPngLayout(split)).toThrow(/split by other chunks/);
    const consecutive = new Uint8Array([
      ...png.subarray(0, idat),
      ...chunk("IDAT", data.subarray(0, half)),
      ...chunk("IDAT", data.subarray(half)),
      ...png.subarray(idat + 12 + length),
    ]);
    await expect(checkPngImageData(readPngLayout(consecutive))).resolves.toBeUndefined();
  });

  it("rejects a file that ends inside a chunk before the image data", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(() => readPngLayout(png)).toThrow(AppError);
  });
});

describe("inflate", () => {
  it("streams every chunk and stops when the consumer has enough", async () => {
    const data = new Uint8Array(1_000_000).map((_, i) => i % 251);
    const parts = (z: Uint8Array) => [z.subarray(0, 1000), z.subarray(1000)];
    let total = 0;
    const all = await inflate(parts(deflateSync(data)), (chunk) => {
      total += chunk.length;
      return true;
    });
    expect([all, total]).toEqual([false, data.length]);
    let seen = 0;
    const stopped = await inflate(parts(deflateSync(data)), (chunk) => {
      seen += chunk.length;
      return seen < 1000;
    });
    expect(stopped).toBe(true);
    expect(seen).toBeLessThan(data.length);
    await expect(inflate([new Uint8Array([0x78, 0x9c, 0xff, 0xff, 0xff])], () => true)).rejects.toThrow();
  });
});

describe("a PNG whose image data inflates beyond its declared size", () => {
  // 100×100 RGBA declares 40,100 bytes of image data; this one inflates to 64 MB.
  const lying = makeLyingPng(100, 100, 64 * 1024 * 1024);

  it("is refused by the edge decoder before it inflates the stream", async () => {
    const bytes = await lying;
    expect(bytes.length).toBeLessThan(100_000);
    let error: unknown;
    try {
      decodePngPixels(bytes);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("IMAGE_DAMAGED");
    expect((error as AppError).message).toMatch(/beyond the 40100 bytes its 100×100 header declares/);
  });

  it("is refused by the size check and by the images-to-pdf image data check", async () => {
    const layout = readPngLayout(await lying);
    expect(() => checkPngDataSize(layout)).toThrow(/inflates beyond/);
    expect(await damagedMessage(checkPngImageData(layout))).toMatch(/far more than its 100 rows/);
  });

  it("leaves honest files, interlaced or not, to the decoder", async () => {
    for (const interlaced of [false, true]) {
      const png = await sharpPng(301, 97, interlaced);
      expect(() => checkPngDataSize(readPngLayout(png))).not.toThrow();
      expect(decodePngPixels(png).width).toBe(301);
    }
    const honest = await makePng(100, 100, () => [10, 20, 30, 255]);
    expect(pngImageDataSize(readPngLayout(honest).header)).toBe(40_100);
    expect(decodePngPixels(honest).data.length).toBe(40_000);
  });
});
