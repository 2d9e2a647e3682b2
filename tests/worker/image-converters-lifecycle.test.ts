/**
 * JPG to PNG and WebP to JPG through the API (`POST /api/image/convert`, `GET /api/image/status/{id}`,
 * the download), inside workerd with the real converter behind it: inputs encoded here with the
 * edge codecs, outputs decoded back and checked (type, size, pixels), images over the edge budget
 * converted by the container, the wrong format refused naming the kinds that would do.
 */
import { describe, expect, it } from "vitest";
import { API_PATHS, downloadPath, FILE_KINDS } from "../../contract/index.ts";
import { loadEdgeCodecs } from "../../engines/image/codecs.ts";
import type { RgbaImage } from "../../engines/image/image-codecs.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { jpegSize, makePng } from "./fixtures.ts";

/** Left half orange, right half teal, a soft vertical gradient on both. */
function picture(width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const shade = Math.round((40 * y) / height);
      data.set(
        x < width / 2 ? [240 - shade, 140, 20, 255] : [20, 150 - shade, 160, 255],
        (y * width + x) * 4,
      );
    }
  }
  return { width, height, data };
}

async function convert(client: ApiClient, name: string, bytes: Uint8Array, target: string) {
  const taskId = await client.start(
    API_PATHS.imageConvert,
    form("file", [{ name, bytes }], { target_format: target, quality: "high" }),
  );
  const last = (await client.waitForTask("image", taskId, 60_000)).at(-1);
  expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
  const download = await client.fetch(downloadPath("image", taskId));
  expect(download.status).toBe(200);
  return { status: last, download, bytes: new Uint8Array(await download.arrayBuffer()) };
}

function expectRgb(image: RgbaImage, x: number, y: number, expected: readonly number[], tolerance = 12) {
  const at = (y * image.width + x) * 4;
  const actual = [...image.data.subarray(at, at + 3)];
  const off = Math.max(...actual.map((v, c) => Math.abs(v - (expected[c] ?? 0))));
  expect(off, `got ${actual}, expected ${expected}`).toBeLessThanOrEqual(tolerance);
}

describe("jpg-to-png", () => {
  it("converts a JPEG to a lossless PNG of the same size and colours, and says metadata was removed", async () => {
    const codecs = await loadEdgeCodecs(["jpegEncoder"]);
    const jpeg = codecs.encodeJpeg(picture(160, 96), { quality: 95, grayscale: false });
    const { status, download, bytes } = await convert(new ApiClient(), "holiday.jpeg", jpeg, "png");
    expect(status?.tool).toBe("jpg-to-png");
    expect(status?.result?.filename).toBe("holiday.png");
    expect(status?.result?.facts).toMatchObject({ width: 160, height: 96, first_frame_only: false });
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.png.mime);
    const png = codecs.decodePng(bytes);
    expect([png.width, png.height]).toEqual([160, 96]);
    expectRgb(png, 20, 10, [239, 140, 20]);
    expectRgb(png, 140, 10, [20, 149, 160]);
  });

  it("converts a JPEG over the edge budget in the container", async () => {
    const codecs = await loadEdgeCodecs(["jpegEncoder"]);
    const jpeg = codecs.encodeJpeg(picture(2000, 1300), { quality: 80, grayscale: false });
    const { status, bytes } = await convert(new ApiClient(), "big.jpg", jpeg, "png");
    expect(status?.tool).toBe("jpg-to-png");
    const png = codecs.decodePng(bytes);
    expect([png.width, png.height]).toEqual([2000, 1300]);
    expectRgb(png, 100, 10, [240, 140, 20]);
  });

  it("refuses a PNG sent for PNG output, naming the kind that would do", async () => {
    const png = await makePng(8, 8, () => [1, 2, 3, 255]);
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.imageConvert,
      form("file", [{ name: "a.png", bytes: png }], { target_format: "png" }),
    );
    expect(response.status).toBe(415);
    const { error: body } = await errorOf(response);
    expect(body.code).toBe("UNSUPPORTED_FILE_TYPE");
    // JPEG first, then the kinds every image input takes (decoded in the container).
    expect(body.context).toMatchObject({ expected: "jpeg, heic, avif, tiff, bmp" });
  });
});

describe("webp-to-jpg", () => {
  it("converts a WebP with transparency to a JPEG flattened onto white", async () => {
    const codecs = await loadEdgeCodecs(["webpEncoder", "jpegDecoder"]);
    const source = picture(120, 80);
    // Top quarter fully transparent.
    for (let i = 0; i < 120 * 20; i++) source.data[i * 4 + 3] = 0;
    const webp = codecs.encodeWebp(source, { quality: 90 });
    const { status, download, bytes } = await convert(new ApiClient(), "sticker.webp", webp, "jpg");
    expect(status?.tool).toBe("webp-to-jpg");
    expect(status?.result?.filename).toBe("sticker.jpg");
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.jpeg.mime);
    expect(jpegSize(bytes)).toEqual({ width: 120, height: 80 });
    const jpeg = codecs.decodeJpeg(bytes);
    expectRgb(jpeg, 20, 5, [255, 255, 255], 6);
    expectRgb(jpeg, 20, 60, [210, 140, 20], 16);
  });

  it("converts a 4096×4096 lossy WebP whose VP8 chunk is 4 MB long (its size is in the first 30 bytes)", async () => {
    const codecs = await loadEdgeCodecs(["webpEncoder"]);
    const webp = codecs.encodeWebp(picture(4096, 4096), { quality: 50 });
    expect(String.fromCharCode(...webp.subarray(12, 16))).toBe("VP8 ");
    // As long as a detailed photo's bitstream: decoders ignore bytes after the partitions.
    const chunkSize = new DataView(webp.buffer, webp.byteOffset).getUint32(16, true);
    const large = new Uint8Array(4 * 1024 * 1024);
    large.set(webp.subarray(0, 20 + chunkSize));
    new DataView(large.buffer).setUint32(4, large.length - 8, true);
    new DataView(large.buffer).setUint32(16, large.length - 20, true);
    const { status, bytes } = await convert(new ApiClient(), "wallpaper.webp", large, "jpg");
    expect(status?.tool).toBe("webp-to-jpg");
    expect(status?.result?.facts).toMatchObject({ width: 4096, height: 4096 });
    expect(jpegSize(bytes)).toEqual({ width: 4096, height: 4096 });
  });
});
