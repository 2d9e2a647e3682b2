import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

const path = TOOLS["organize-pdf"].endpoint.path;

describe("POST /api/pdf/organize", () => {
  it("answers a task id and a PDF of the pages in the new order", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      path,
      form("file", [{ name: "scan.pdf", bytes: makePdf(3) }], { order: "3, 1@90, 0" }),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("scan-organized.pdf");
    expect(last?.result?.facts).toMatchObject({
      pages: 3,
      removed_pages: 1,
      blank_pages: 1,
      turned_pages: 1,
    });
    const download = await client.fetch(last?.result?.download_url ?? "");
    expect(await client.pageCount(new Uint8Array(await download.arrayBuffer()))).toBe(3);
  });

  it.each([
    ["a word", "first,last"],
    ["a turn that is not a quarter", "2@45"],
    ["an empty order", ""],
    ["a negative page", "-1"],
  ])("refuses %s at once with INVALID_OPTIONS naming the field", async (_, order) => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      path,
      form("file", [{ name: "a.pdf", bytes: makePdf(2) }], { order }),
    );
    expect(response.status).toBe(400);
    const { error } = await errorOf(response);
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(String(error.context?.issues)).toMatch(/^order: /);
  });

  it("fails the task with the page the document does not have", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      path,
      form("file", [{ name: "a.pdf", bytes: makePdf(2) }], { order: "1,5" }),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state).toBe("FAILURE");
    expect(last?.error_code).toBe("INVALID_OPTIONS");
    expect(last?.error_context).toEqual({ page_ranges_error: "invalidPage", page: "5", pages: 2 });
  });

  it("fails the task when no order is given", async () => {
    const client = new ApiClient();
    const taskId = await client.start(path, form("file", [{ name: "a.pdf", bytes: makePdf(2) }]));
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.error_code).toBe("INVALID_OPTIONS");
    expect(last?.error_context).toMatchObject({ organize_error: "orderRequired" });
  });
});
