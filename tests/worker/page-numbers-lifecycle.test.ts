import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

const path = TOOLS["page-numbers"].endpoint.path;

describe("POST /api/pdf/page-numbers", () => {
  it("numbers the pages and answers the PDF through the task", async () => {
    const client = new ApiClient();
    const fields = { position: "top-right", start: "3", pages: "2-3", format: "number-of-total" };
    const taskId = await client.start(
      path,
      form("file", [{ name: "report.pdf", bytes: makePdf(3) }], fields),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("report-numbered.pdf");
    expect(last?.result?.facts).toMatchObject({ pages: 3, numbered_pages: 2 });
  });

  it.each([
    ["an unknown position", { position: "middle" }],
    ["a size too small to read", { size: "2" }],
    ["digits of another script", { digits: "arabic" }],
    ["ranges that are not ranges", { pages: "two" }],
  ])("refuses %s at once with INVALID_OPTIONS", async (_, fields) => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      path,
      form("file", [{ name: "a.pdf", bytes: makePdf(2) }], fields),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("INVALID_OPTIONS");
  });
});
