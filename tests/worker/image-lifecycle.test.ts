import { describe, expect, it } from "vitest";
import { API_PATHS, downloadPath, FILE_KINDS } from "../../contract/index.ts";
import { ApiClient, form } from "./api-client.ts";
import { jpegSize, makeLyingPng, makePng } from "./fixtures.ts";

describe("png-to-jpg", () => {
  it("converts a PNG to a JPEG of the same size, served as image/jpeg", async () => {
    const client = new ApiClient();
    const width = 120;
    const height = 80;
    const png = await makePng(width, height, (x, y) => [x * 2, y * 3, (x + y) % 256, 255]);
    const taskId = await client.start(
      API_PATHS.imageConvert,
      form("file", [{ name: "photo.png", bytes: png }], { target_format: "jpg", quality: "high" }),
    );
    const seen = await client.waitForTask("image", taskId);
    const last = seen.at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.tool).toBe("png-to-jpg");
    expect(last?.result?.filename).toBe("photo.jpg");
    expect(last?.result?.original_size).toBe(png.byteLength);

    const download = await client.fetch(downloadPath("image", taskId));
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.jpeg.mime);
    expect(download.headers.get("Content-Disposition")).toBe(
      `attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`,
    );
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpegSize(bytes)).toEqual({ width, height });
    expect(last?.result?.new_size).toBe(bytes.byteLength);
  });

  it("accepts `jpeg` as the target name and the default quality", async () => {
    const client = new ApiClient();
    const png = await makePng(16, 9, () => [10, 200, 30, 255]);
    const taskId = await client.start(
      API_PATHS.imageConvert,
      form("file", [{ name: "tiny.png", bytes: png }], { target_format: "jpeg" }),
    );
    const last = (await client.waitForTask("image", taskId)).at(-1);
    expect(last?.state).toBe("SUCCESS");
    const bytes = new Uint8Array(await (await client.fetch(downloadPath("image", taskId))).arrayBuffer());
    expect(jpegSize(bytes)).toEqual({ width: 16, height: 9 });
  });

  it("fails a PNG whose image data inflates far beyond its 100×100 header, at the edge", async () => {
    const client = new ApiClient();
    const png = await makeLyingPng(100, 100, 64 * 1024 * 1024);
    const taskId = await client.start(
      API_PATHS.imageConvert,
      form("file", [{ name: "lying.png", bytes: png }], { target_format: "jpg" }),
    );
    const last = (await client.waitForTask("image", taskId)).at(-1);
    expect(last?.state).toBe("FAILURE");
    expect(last?.error_code).toBe("IMAGE_DAMAGED");
  });
});
