import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, makePng } from "./fixtures.ts";

const path = TOOLS.watermark.endpoint.path;

describe("POST /api/pdf/watermark", () => {
  it("stamps the text and answers the PDF through the task", async () => {
    const client = new ApiClient();
    const fields = { text: "गोपनीय", opacity: "0.4", rotation: "diagonal", position: "tiled", pages: "1" };
    const taskId = await client.start(path, form("file", [{ name: "memo.pdf", bytes: makePdf(2) }], fields));
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("memo-watermarked.pdf");
    expect(last?.result?.facts).toMatchObject({ pages: 2, watermarked_pages: 1 });
  });

  it("stamps an image sent in the image field, with its transparency, and names a bad one", async () => {
    const client = new ApiClient();
    const logo = await makePng(40, 20, (x) => (x < 20 ? [200, 0, 0, 255] : [0, 0, 0, 0]));
    const body = form("file", [{ name: "memo.pdf", bytes: makePdf(2) }], { opacity: "0.5", pages: "2" });
    body.append("image", new File([logo], "logo.png", { type: "image/png" }));
    const taskId = await client.start(path, body);
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.facts).toMatchObject({ pages: 2, watermarked_pages: 1, watermark: "image" });
    const response = await client.fetch(last?.result?.download_url ?? "");
    const text = new TextDecoder("latin1").decode(new Uint8Array(await response.arrayBuffer()));
    expect(text).toMatch(/\/Width 40\b/);
    expect(text).toMatch(/\/SMask/);

    const notImage = form("file", [{ name: "memo.pdf", bytes: makePdf(1) }]);
    notImage.append("image", new File([new TextEncoder().encode("not a picture")], "logo.png"));
    const refused = await client.send("POST", path, notImage);
    expect(refused.status).toBe(415);
    expect((await errorOf(refused)).error).toMatchObject({ code: "UNSUPPORTED_FILE_TYPE" });
  });

  it.each([
    ["an opacity over 1", { text: "DRAFT", opacity: "3" }],
    ["a rotation that is not a number", { text: "DRAFT", rotation: "sideways" }],
    ["blank text", { text: "   " }],
    ["a colour name", { text: "DRAFT", color: "red" }],
  ])("refuses %s at once with INVALID_OPTIONS", async (_, fields) => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      path,
      form("file", [{ name: "a.pdf", bytes: makePdf(1) }], fields),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("INVALID_OPTIONS");
  });
});
