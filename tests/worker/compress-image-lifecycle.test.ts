/**
 * Compress image through the API (spec §7): `POST /api/image/convert` with the file's own format as
 * `target_format` and a numeric quality, then the status until SUCCESS, then the download. The job
 * runs in the real converter (tests/worker/global-setup.ts).
 */
import { describe, expect, it } from "vitest";
import { API_PATHS, downloadPath, FILE_KINDS } from "../../contract/index.ts";
import { loadEdgeCodecs } from "../../engines/image/codecs.ts";
import { readImageInfo } from "../../engines/image/image-info.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { jpegSize, makePng } from "./fixtures.ts";

/** A screenshot-like RGBA PNG: a header bar, panels and rows of "text", stored with plain deflate. */
function screenshot(width: number, height: number) {
  return makePng(width, height, (x, y) => {
    if (y < 30) return [37, 99, 235, 255];
    if (x < 120) return [241, 245, 249, 255];
    const inText = (y - 40) % 20 < 8 && (x - 130) % 60 < 45;
    return inText ? [40 + (y % 3) * 20, 40, 60, 255] : [252, 252, 252, 255];
  });
}

async function compressed(
  client: ApiClient,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string>,
) {
  const taskId = await client.start(API_PATHS.imageConvert, form("file", [{ name, bytes }], fields));
  const seen = await client.waitForTask("image", taskId);
  const last = seen.at(-1);
  expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
  const download = await client.fetch(downloadPath("image", taskId));
  expect(download.status).toBe(200);
  return { status: last, download, bytes: new Uint8Array(await download.arrayBuffer()) };
}

describe("compress-image", () => {
  it("compresses a PNG into a smaller PNG of the same size, chosen by the numeric quality", async () => {
    const client = new ApiClient();
    const png = await screenshot(640, 400);
    const { status, download, bytes } = await compressed(client, "screen.png", png, {
      target_format: "png",
      quality: "85",
    });
    expect(status?.tool).toBe("compress-image");
    expect(status?.result?.filename).toBe("screen-compressed.png");
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.png.mime);
    const info = readImageInfo(bytes);
    expect([info.kind, info.width, info.height]).toEqual(["png", 640, 400]);
    expect(bytes.length).toBeLessThan(png.length);
    expect(status?.result?.original_size).toBe(png.length);
    expect(status?.result?.new_size).toBe(bytes.length);
    expect(status?.result?.size_reduction_percent).toBeGreaterThan(0);
    expect(status?.result?.facts).toMatchObject({ width: 640, height: 400, alreadyOptimized: false });
  });

  it("compresses a JPEG with MozJPEG: fewer bytes at quality 60 than at 95, both smaller", async () => {
    const client = new ApiClient();
    const codecs = await loadEdgeCodecs();
    const width = 320;
    const height = 240;
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      const y = Math.floor(i / width);
      data.set([(x * 255) / width, (y * 255) / height, 128 + Math.sin(x / 9) * 60, 255], i * 4);
    }
    const jpeg = codecs.encodeJpeg({ width, height, data }, { quality: 100, grayscale: false });
    const low = await compressed(client, "photo.jpg", jpeg, { target_format: "jpg", quality: "60" });
    const high = await compressed(client, "photo.jpg", jpeg, { target_format: "jpg", quality: "95" });
    for (const result of [low, high]) {
      expect(result.download.headers.get("Content-Type")).toBe(FILE_KINDS.jpeg.mime);
      expect(jpegSize(result.bytes)).toEqual({ width, height });
      expect(result.bytes.length).toBeLessThan(jpeg.length);
    }
    expect(low.bytes.length).toBeLessThan(high.bytes.length);
    expect(low.status?.result?.facts.quality).toBe(60);
  });

  it("returns the original of a file it cannot make smaller, and says so", async () => {
    const client = new ApiClient();
    const first = await compressed(client, "tiny.png", await screenshot(64, 64), {
      target_format: "png",
      quality: "95",
    });
    const again = await compressed(client, "tiny.png", first.bytes, { target_format: "png", quality: "95" });
    expect(again.bytes).toEqual(first.bytes);
    expect(again.status?.result?.filename).toBe("tiny.png");
    expect(again.status?.result?.size_reduction_percent).toBe(0);
    expect(again.status?.result?.facts.alreadyOptimized).toBe(true);
  });

  it("refuses a custom quality outside 30–100", async () => {
    const client = new ApiClient();
    const png = await screenshot(32, 32);
    const response = await client.send(
      "POST",
      API_PATHS.imageConvert,
      form("file", [{ name: "x.png", bytes: png }], { target_format: "png", quality: "20" }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("INVALID_OPTIONS");
  });
});
