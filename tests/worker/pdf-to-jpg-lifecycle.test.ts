import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { FILE_KINDS, TOOLS, type ToolId } from "../../contract/index.ts";
import pdfToJpg from "../../tools/pdf-to-jpg/tool.ts";
import { ApiClient, form } from "./api-client.ts";
import { jpegSize, makePdf } from "./fixtures.ts";

const tool: ToolId = pdfToJpg.id;

async function convert(client: ApiClient, pdf: Uint8Array, fields: Record<string, string>) {
  const body = form("file", [{ name: "report.pdf", bytes: pdf, type: "application/pdf" }], {
    output_format: "jpg",
    ...fields,
  });
  const taskId = await client.start(TOOLS[tool].endpoint.path, body);
  return (await client.waitForTask("pdf", taskId, 60_000)).at(-1);
}

describe("PDF to JPG through the real converter", () => {
  it("renders the selected pages in order at the chosen resolution into a ZIP", async () => {
    const client = new ApiClient();
    const last = await convert(client, makePdf(4), {
      conversion_mode: "convert-pages",
      page_ranges: "3,1",
      dpi: "72",
    });
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.facts).toMatchObject({ pages: 4, pages_rendered: 2, dpi: 72 });
    expect(last?.result?.filename).toBe("report-pages.zip");
    const download = await client.fetch(last?.result?.download_url ?? "");
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.zip.mime);
    const entries = Object.entries(unzipSync(new Uint8Array(await download.arrayBuffer())));
    expect(entries.map(([name]) => name)).toEqual(["report-page-3.jpg", "report-page-1.jpg"]);
    // Letter pages (612 × 792 pt) at 72 dpi.
    for (const [, jpeg] of entries) expect(jpegSize(jpeg)).toEqual({ width: 612, height: 792 });
  });

  it("answers one page as a JPG file", async () => {
    const client = new ApiClient();
    const last = await convert(client, makePdf(2), { conversion_mode: "convert-pages", page_ranges: "2" });
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("report-page-2.jpg");
    const download = await client.fetch(last?.result?.download_url ?? "");
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.jpeg.mime);
    // The default resolution, 150 dpi.
    expect(jpegSize(new Uint8Array(await download.arrayBuffer()))).toEqual({ width: 1275, height: 1650 });
  });

  it("fails a task whose ranges do not fit the document with the spec's message key", async () => {
    const client = new ApiClient();
    const last = await convert(client, makePdf(3), { conversion_mode: "convert-pages", page_ranges: "2-9" });
    expect(last?.state).toBe("FAILURE");
    // Spec §3: the error is text; its code and context travel beside it.
    expect(typeof last?.error).toBe("string");
    expect(last?.error).not.toBe("");
    expect(last?.error_code).toBe("INVALID_OPTIONS");
    expect(last?.error_context).toMatchObject({ page_ranges_error: "invalidRange", range: "2-9", pages: 3 });
  });

  it("says when there is no image to extract", async () => {
    const client = new ApiClient();
    const last = await convert(client, makePdf(2), { conversion_mode: "extract-images" });
    expect(last?.state).toBe("FAILURE");
    expect(last?.error_code).toBe("PDF_NO_IMAGES");
  });
});
