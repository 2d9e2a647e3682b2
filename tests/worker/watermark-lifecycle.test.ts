import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

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
