import { describe, expect, inject, it } from "vitest";
import { API_PATHS, FILE_KINDS, TOOLS } from "../../contract/index.ts";
import ocrTool from "../../tools/ocr/tool.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, startsWithPdfHeader } from "./fixtures.ts";
import { SCAN_TEXT } from "./scan-text.ts";

const path = TOOLS[ocrTool.id].endpoint.path;
const scan = () => Uint8Array.from(atob(inject("scanPdf")), (c) => c.charCodeAt(0));

async function recognise(client: ApiClient, pdf: Uint8Array, fields: Record<string, string> = {}) {
  const taskId = await client.start(path, form("file", [{ name: "scan.pdf", bytes: pdf }], fields));
  return client.waitForTask("pdf", taskId, 60_000);
}

describe("OCR through the real converter", () => {
  it("answers a task id on POST /api/pdf/ocr and makes the scan a searchable PDF", async () => {
    expect(path).toBe("/api/pdf/ocr");
    const client = new ApiClient();
    const statuses = await recognise(client, scan(), { languages: "en" });
    const last = statuses.at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    // Heading and sentence: every word counted in the text layer (Tesseract may split or join one).
    const words = `Scanned page ${SCAN_TEXT}`.split(" ").length;
    expect(last?.result?.facts).toMatchObject({ pages: 1, pages_recognised: 1, pages_with_text: 0 });
    expect(Number(last?.result?.facts.words)).toBeGreaterThanOrEqual(words - 1);
    expect(last?.result?.filename).toBe("scan-ocr.pdf");
    const download = await client.fetch(last?.result?.download_url ?? "");
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.pdf.mime);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(startsWithPdfHeader(bytes)).toBe(true);
    expect(await client.pageCount(bytes)).toBe(1);
  });

  it("detects the script when no language is given, and keeps pages that have text", async () => {
    const client = new ApiClient();
    const detected = (await recognise(client, scan())).at(-1);
    expect(detected?.state, JSON.stringify(detected?.error)).toBe("SUCCESS");
    expect(detected?.result?.facts).toMatchObject({ pages_recognised: 1 });
    const kept = (await recognise(client, makePdf(2), { languages: "de,hi" })).at(-1);
    expect(kept?.state, JSON.stringify(kept?.error)).toBe("SUCCESS");
    expect(kept?.result?.facts).toMatchObject({ pages: 2, pages_recognised: 0, pages_with_text: 2 });
  });

  it("refuses a language outside the site's seven, and a file that is neither PDF nor image", async () => {
    const client = new ApiClient();
    const wrong = await client.send(
      "POST",
      path,
      form("file", [{ name: "a.pdf", bytes: makePdf(1) }], { languages: "en,xx" }),
    );
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).error.code).toBe("INVALID_OPTIONS");
    const text = new TextEncoder().encode("just some words\n");
    const refused = await client.send("POST", path, form("file", [{ name: "notes.txt", bytes: text }]));
    expect(refused.status).toBe(415);
    expect((await errorOf(refused)).error.code).toBe("UNSUPPORTED_FILE_TYPE");
  });

  it("is in the OpenAPI document with its file and languages fields", async () => {
    const doc = (await (await new ApiClient().fetch(API_PATHS.openapi)).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    };
    const operation = doc.paths["/api/pdf/ocr"]?.post;
    expect(operation).toBeDefined();
    const schema = JSON.stringify(operation?.requestBody?.content["multipart/form-data"]?.schema);
    expect(schema).toContain('"file"');
    expect(schema).toContain('"languages"');
  });
});
