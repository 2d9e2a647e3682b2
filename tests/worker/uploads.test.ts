import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_PATHS, declarationOf, type FileKind, TOOL_IDS, TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, makePng } from "./fixtures.ts";

/** A PNG signature and an IHDR chunk declaring 64×64 pixels (the pixel limit is checked first). */
const PNG_HEAD = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0,
  64, 8, 6, 0, 0, 0, 0, 0, 0, 0,
]);

/** A multipart body of one file of `totalBytes`, produced lazily; `pulled()` tells how much was read. */
function lazyUpload(field: string, totalBytes: number) {
  const boundary = `----lazy${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  let sent = 0;
  let finished = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        const head = encoder.encode(
          `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="big.png"\r\n` +
            "Content-Type: image/png\r\n\r\n",
        );
        controller.enqueue(new Uint8Array([...head, ...PNG_HEAD]));
        sent = head.length + PNG_HEAD.length;
      } else if (sent < totalBytes) {
        const size = Math.min(64 * 1024, totalBytes - sent);
        controller.enqueue(new Uint8Array(size));
        sent += size;
      } else if (!finished) {
        controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
        finished = true;
      } else controller.close();
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, pulled: () => sent };
}

describe("size limits", () => {
  it("refuses a file over the limit while it streams (413 FILE_TOO_LARGE), long before its end", async () => {
    const client = new ApiClient();
    const limit = TOOLS["png-to-jpg"].input.maxFileBytes;
    const upload = lazyUpload("file", limit * 4);
    const response = await client.send("POST", API_PATHS.imageConvert, upload.body, {
      "Content-Type": upload.contentType,
    });
    expect(response.status).toBe(413);
    const body = await errorOf(response);
    expect(body.error.code).toBe("FILE_TOO_LARGE");
    expect(body.error.context?.max_file_bytes).toBe(limit);
    expect(upload.pulled()).toBeLessThan(limit * 2);
  });

  it("refuses from Content-Length before reading the body", async () => {
    const client = new ApiClient();
    const declared = TOOLS["merge-pdf"].input.maxTotalBytes * 2;
    const fixed = new FixedLengthStream(declared);
    const writer = fixed.writable.getWriter();
    const response = await client.send("POST", TOOLS["merge-pdf"].endpoint.path, fixed.readable, {
      "Content-Type": "multipart/form-data; boundary=x",
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).error.code).toBe("FILE_TOO_LARGE");
    writer.releaseLock();
  });

  it("refuses more files than the tool takes (413 TOO_MANY_FILES)", async () => {
    const client = new ApiClient();
    const max = TOOLS["merge-pdf"].input.maxFiles;
    const files = Array.from({ length: max + 1 }, (_, i) => ({ name: `p${i}.pdf`, bytes: makePdf(1) }));
    const response = await client.send("POST", TOOLS["merge-pdf"].endpoint.path, form("files", files));
    expect(response.status).toBe(413);
    const body = await errorOf(response);
    expect(body.error.code).toBe("TOO_MANY_FILES");
    expect(body.error.context?.max_files).toBe(max);
  });

  it("refuses more text fields than any tool has options as 400 BAD_REQUEST, not TOO_MANY_FILES", async () => {
    const client = new ApiClient();
    const png = await makePng(4, 4, () => [255, 0, 0, 255]);
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field${i}`, "x"]));
    const response = await client.send(
      "POST",
      API_PATHS.imageConvert,
      form("file", [{ name: "a.png", bytes: png }], { target_format: "jpg", ...fields }),
    );
    expect(response.status).toBe(400);
    const body = await errorOf(response);
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.context?.max_fields).toBe(16);
  });
});

describe("file checks", () => {
  it("refuses a file whose bytes are not an accepted kind (415), naming the expected kinds", async () => {
    const client = new ApiClient();
    const png = await makePng(4, 4, () => [255, 0, 0, 255]);
    // The name and the declared type say PDF; the bytes decide.
    const response = await client.send(
      "POST",
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [
        { name: "a.pdf", bytes: makePdf(1) },
        { name: "b.pdf", bytes: png, type: "application/pdf" },
      ]),
    );
    expect(response.status).toBe(415);
    const body = await errorOf(response);
    expect(body.error.code).toBe("UNSUPPORTED_FILE_TYPE");
    expect(body.error.context?.expected).toBe("pdf");
  });

  it("deletes the files already stored when an upload is refused", async () => {
    const client = new ApiClient();
    const marker = `refused-${crypto.randomUUID()}`;
    const response = await client.send(
      "POST",
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [
        { name: `${marker}-1.pdf`, bytes: makePdf(1) },
        { name: `${marker}-2.pdf`, bytes: makePdf(1) },
        { name: `${marker}-3.pdf`, bytes: new TextEncoder().encode("plain text") },
      ]),
    );
    expect(response.status).toBe(415);
    const listing = await env.FILES.list({ prefix: "tasks/", include: ["customMetadata"] });
    const leftovers = listing.objects.filter((o) =>
      decodeURIComponent(o.customMetadata?.name ?? "").startsWith(marker),
    );
    expect(leftovers).toEqual([]);
  });

  it("answers NO_FILE when the form holds no file", async () => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [], { note: "x" }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("NO_FILE");
  });

  it("refuses a body that is not multipart", async () => {
    const client = new ApiClient();
    const response = await client.send("POST", TOOLS["merge-pdf"].endpoint.path, "{}", {
      "Content-Type": "application/json",
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("BAD_REQUEST");
  });

  it("validates options with the tool's schema (400 INVALID_OPTIONS)", async () => {
    const client = new ApiClient();
    const png = await makePng(2, 2, () => [0, 0, 0, 255]);
    const badQuality = await client.send(
      "POST",
      API_PATHS.imageConvert,
      form("file", [{ name: "a.png", bytes: png }], { target_format: "jpg", quality: "ultra" }),
    );
    expect(badQuality.status).toBe(400);
    expect((await errorOf(badQuality)).error.code).toBe("INVALID_OPTIONS");

    const badTarget = await client.send(
      "POST",
      API_PATHS.imageConvert,
      form("file", [{ name: "a.png", bytes: png }], { target_format: "bmp" }),
    );
    expect(badTarget.status).toBe(400);
    const body = await errorOf(badTarget);
    expect(body.error.code).toBe("INVALID_OPTIONS");
    expect(body.error.context?.target_format).toContain("jpg");
  });
});

/** Minimal bytes of each image kind (the magic bytes are what the Worker checks). */
async function sampleImage(kind: FileKind): Promise<Uint8Array> {
  const ascii = (text: string) => new TextEncoder().encode(text);
  if (kind === "png") return makePng(2, 2, () => [0, 0, 0, 255]);
  // Headers that declare a 2×2 image (uploads read the size before storing anything).
  if (kind === "jpeg")
    // SOI, a baseline frame header (SOF0), a scan header (SOS), EOI.
    return new Uint8Array([
      0xff, 0xd8, 0xff, 0xc0, 0, 17, 8, 0, 2, 0, 2, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xff, 0xda, 0, 12,
      3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0, 0, 0xff, 0xd9,
    ]);
  if (kind === "webp")
    return new Uint8Array([
      ...ascii("RIFF"),
      18,
      0,
      0,
      0,
      ...ascii("WEBPVP8L"),
      5,
      0,
      0,
      0,
      0x2f,
      1,
      0x40,
      0,
      0,
      0,
    ]);
  if (kind === "gif") return new Uint8Array([...ascii("GIF89a"), 2, 0, 2, 0, 0, 0, 0, 0x3b]);
  return makePdf(1);
}

const toolsAt = (path: string) => TOOL_IDS.filter((id) => TOOLS[id].endpoint.path === path);

describe("tools not available yet", () => {
  const unavailable = TOOL_IDS.filter((id) => !TOOLS[id].available);

  it("include the announced ones", () => {
    expect(unavailable).toEqual(expect.arrayContaining(TOOL_IDS.filter((id) => TOOLS[id].comingSoon)));
  });

  it("are none once sign is built: every declared tool runs", () => {
    expect(unavailable).toEqual([]);
  });

  it.each(unavailable)("%s answers 501 TOOL_NOT_AVAILABLE", async (id) => {
    const client = new ApiClient();
    const endpoint = declarationOf(id).endpoint;
    let response: Response;
    if (endpoint.path === API_PATHS.imageConvert) {
      // Decided by the file's kind and the fields, so the body is needed.
      const kind = TOOLS[id].input.kinds[0] ?? "png";
      const fields: Record<string, string> =
        id === "compress-image" ? { quality: "75" } : Object.fromEntries(Object.entries(endpoint.fields));
      response = await client.send(
        "POST",
        endpoint.path,
        form(endpoint.fileField, [{ name: `a.${kind}`, bytes: await sampleImage(kind) }], fields),
      );
    } else {
      // Decided by the path and query: refused before any body is sent.
      const query = new URLSearchParams(endpoint.fields).toString();
      response = await client.send("POST", query ? `${endpoint.path}?${query}` : endpoint.path);
    }
    expect(response.status).toBe(501);
    const body = await errorOf(response);
    expect(body.error.code).toBe("TOOL_NOT_AVAILABLE");
    expect(body.error.context?.tool).toBe(id);
  });

  // The refusal mechanism stays for a tool declared before it is built (none is, today).
  const unbuiltConvert = TOOL_IDS.find(
    (t) => !TOOLS[t].available && TOOLS[t].endpoint.path === API_PATHS.pdfConvert,
  );
  it.runIf(unbuiltConvert !== undefined)(
    "answer 501 for a task-style convert naming an unavailable tool in a form field",
    async () => {
      const client = new ApiClient();
      const id = unbuiltConvert;
      if (id === undefined) return;
      const response = await client.send(
        "POST",
        API_PATHS.pdfConvert,
        form(
          "file",
          [{ name: "a.pdf", bytes: makePdf(1) }],
          Object.fromEntries(Object.entries(declarationOf(id).endpoint.fields)),
        ),
      );
      expect(response.status).toBe(501);
      const body = await errorOf(response);
      expect(body.error.code).toBe("TOOL_NOT_AVAILABLE");
      // With no tool of the path available, the refusal comes before the body and names no tool.
      const anyAvailable = toolsAt(API_PATHS.pdfConvert).some((t) => TOOLS[t].available);
      expect(body.error.context?.tool).toBe(anyAvailable ? id : undefined);
    },
  );
});
