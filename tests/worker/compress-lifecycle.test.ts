import { describe, expect, it } from "vitest";
import { FILE_KINDS, TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, startsWithPdfHeader } from "./fixtures.ts";

const compressPath = TOOLS["compress-pdf"].endpoint.path;

describe("compress PDF through the real converter", () => {
  // Uncompressed page contents: the lossless re-save alone makes this file smaller.
  const input = makePdf(40, "Compress me");

  it("answers the file itself for the spec's call with ?quality= (blob style)", async () => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      `${compressPath}?quality=low`,
      form("file", [{ name: "report.pdf", bytes: input }]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe(FILE_KINDS.pdf.mime);
    expect(response.headers.get("Content-Disposition")).toContain('filename="report-compressed.pdf"');
    expect(response.headers.get("X-Task-Id")).toBeTruthy();
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(startsWithPdfHeader(bytes)).toBe(true);
    expect(bytes.byteLength).toBeLessThan(input.byteLength);
    expect(await client.pageCount(bytes)).toBe(40);
  });

  it("runs as a task with a quality field for the screen, with sizes and facts", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      compressPath,
      form("file", [{ name: "report.pdf", bytes: input }], { quality: "high" }),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.original_size).toBe(input.byteLength);
    expect(last?.result?.new_size).toBeLessThan(input.byteLength);
    expect(last?.result?.size_reduction_percent).toBeGreaterThan(0);
    expect(last?.result?.facts).toMatchObject({ pages: 40, quality: "high", already_optimized: false });
  });

  it("refuses an unknown quality (400 INVALID_OPTIONS)", async () => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      `${compressPath}?quality=best`,
      form("file", [{ name: "report.pdf", bytes: input }]),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("INVALID_OPTIONS");
  });
});
