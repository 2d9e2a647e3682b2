/**
 * Sign PDF through the real Worker and converter: the signature arrives in its own multipart field
 * (a tool's extra file field), is checked by content, stored in R2 with the task's inputs, reaches
 * the engine and is deleted with the inputs; bad placements and files are refused with named errors.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_PATHS, TOOLS } from "../../contract/index.ts";
import { type TaskObject, taskStub } from "../../worker/task-object.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, makePng } from "./fixtures.ts";

const SIGN = TOOLS.sign.endpoint.path;

/** A 40×20 signature: a dark stroke on a transparent background. */
const signaturePng = () =>
  makePng(40, 20, (x, y) => (y === 10 || x === 5 ? [10, 20, 120, 255] : [0, 0, 0, 0]));

/** The sign form: the PDF in `file`, the image in `signature`, then the option fields. */
function signForm(pdf: Uint8Array, signature: Uint8Array | null, fields: Record<string, string>): FormData {
  const data = form("file", [{ name: "contract.pdf", bytes: pdf }], fields);
  if (signature !== null)
    data.append("signature", new File([signature], "signature.png", { type: "image/png" }));
  return data;
}

async function refusal(body: FormData, path: string = SIGN) {
  const response = await new ApiClient().send("POST", path, body);
  return { status: response.status, error: (await errorOf(response)).error };
}

describe("POST /api/pdf/sign", () => {
  it("is described in the OpenAPI document with its signature field", async () => {
    const doc = (await (await new ApiClient().fetch(API_PATHS.openapi)).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const schema = doc.paths[SIGN]?.post.requestBody.content["multipart/form-data"]?.schema as {
      properties: Record<string, { format?: string }>;
      required: string[];
    };
    expect(schema.required).toEqual(["file", "signature"]);
    expect(schema.properties.signature?.format).toBe("binary");
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["page", "x", "y", "width", "placements", "password", "initials", "date"]),
    );
  });

  it("stores the signature with the inputs, stamps it, and deletes it with them", async () => {
    const client = new ApiClient();
    const placements = [
      { page: 1, x: 0.6, y: 0.8, width: 0.25 },
      { page: 3, x: 0.1, y: 0.1, width: 0.2 },
    ];
    const taskId = await client.start(
      SIGN,
      signForm(makePdf(3, "Contract"), await signaturePng(), { placements: JSON.stringify(placements) }),
    );
    const stored = await runInDurableObject(taskStub(env, taskId), async (_: TaskObject, state) =>
      JSON.stringify([...state.storage.kv.list()]),
    );
    expect(stored).toContain(`"key":"tasks/${taskId}/in/field-signature"`);
    expect(stored).toContain('"field":"signature"');
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("contract-signed.pdf");
    expect(last?.result?.facts).toMatchObject({ pages: 3, signed_pages: 2, placements: 2 });
    // The original size is the PDF's alone: the signature is a tool input, not a document.
    expect(last?.result?.original_size).toBe(makePdf(3, "Contract").length);
    const response = await client.fetch(last?.result?.download_url ?? "");
    const signed = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder("latin1").decode(signed);
    // The engine received the signature: one image XObject of its size, with its transparency.
    expect(text.match(/\/Subtype\s*\/Image/g)?.length).toBe(2);
    expect(text).toMatch(/\/Width 40\b/);
    expect(text).toMatch(/\/SMask/);
    expect(await client.pageCount(signed)).toBe(3);
    const inputs = await env.FILES.list({ prefix: `tasks/${taskId}/in/` });
    expect(inputs.objects.map((object) => object.key)).toEqual([]);
  });

  it("takes one placement as plain page, x, y and width fields", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      SIGN,
      signForm(makePdf(2), await signaturePng(), { page: "2", x: "0.5", y: "0.5", width: "0.3" }),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.facts).toMatchObject({ pages: 2, signed_pages: 1, placements: 1 });
  });

  it("signs a protected PDF opened with its password (the password field every PDF tool has)", async () => {
    const client = new ApiClient();
    const protectId = await client.start(
      TOOLS.protect.endpoint.path,
      form("file", [{ name: "locked.pdf", bytes: makePdf(2) }], { password: "पासवर्ड" }),
    );
    const locked = (await client.waitForTask("pdf", protectId)).at(-1);
    expect(locked?.state, JSON.stringify(locked?.error)).toBe("SUCCESS");
    const bytes = new Uint8Array(
      await (await client.fetch(locked?.result?.download_url ?? "")).arrayBuffer(),
    );
    const placement = { page: "2", x: "0.1", y: "0.1", width: "0.3" };
    const refused = await client.start(SIGN, signForm(bytes, await signaturePng(), placement));
    expect((await client.waitForTask("pdf", refused)).at(-1)?.error_code).toBe("PDF_ENCRYPTED");
    const taskId = await client.start(
      SIGN,
      signForm(bytes, await signaturePng(), { ...placement, password: "पासवर्ड" }),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.facts).toMatchObject({ pages: 2, signed_pages: 1 });
  });

  it("refuses a signature that is not an image, naming its field", async () => {
    const { status, error } = await refusal(
      signForm(makePdf(1), makePdf(1), { page: "1", x: "0", y: "0", width: "0.2" }),
    );
    expect(status).toBe(415);
    expect(error.code).toBe("UNSUPPORTED_FILE_TYPE");
    expect(error.context).toMatchObject({ field: "signature", expected: "png, jpeg, webp" });
  });

  it("refuses a request without a signature (NO_FILE naming the field)", async () => {
    const { status, error } = await refusal(
      signForm(makePdf(1), null, { page: "1", x: "0", y: "0", width: "0.2" }),
    );
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "NO_FILE", context: { field: "signature" } });
  });

  it("refuses an extra file field on a tool that does not declare it", async () => {
    const { status, error } = await refusal(
      signForm(makePdf(1), await signaturePng(), { text: "DRAFT" }),
      TOOLS.watermark.endpoint.path,
    );
    expect(status).toBe(400);
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toBe("Unexpected file field");
  });

  it("refuses a signature over its own size limit while it streams", async () => {
    const limit = TOOLS.sign.input.extraFiles.signature.maxFileBytes;
    const big = new Uint8Array(limit + 1024);
    big.set(await signaturePng());
    const { status, error } = await refusal(
      signForm(makePdf(1), big, { page: "1", x: "0", y: "0", width: "0.2" }),
    );
    expect(status).toBe(413);
    expect(error).toMatchObject({
      code: "FILE_TOO_LARGE",
      context: { field: "signature", max_file_bytes: limit },
    });
  });

  it.each([
    ["a fraction over 1", { page: "1", x: "1.5", y: "0", width: "0.2" }, "x"],
    ["a width that runs off the right edge", { page: "1", x: "0.9", y: "0", width: "0.2" }, "width"],
    ["page 0", { page: "0", x: "0", y: "0", width: "0.2" }, "page"],
    ["placements that are not JSON", { placements: "[{page:1" }, "placements"],
    [
      "a placement of an unknown image",
      { placements: '[{"image":"stamp","page":1,"x":0,"y":0,"width":0.1}]' },
      "placements.0.image",
    ],
  ])("refuses %s at once with INVALID_OPTIONS naming the field", async (_, fields, field) => {
    const { status, error } = await refusal(signForm(makePdf(1), await signaturePng(), fields));
    expect(status).toBe(400);
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(String(error.context?.issues)).toContain(`${field}:`);
  });

  it.each([
    [
      "a page the PDF does not have",
      { page: "4", x: "0", y: "0", width: "0.2" },
      { sign_error: "page_out_of_range", page: 4, pages: 2 },
    ],
    [
      "a box that runs off the bottom",
      { page: "1", x: "0", y: "0.95", width: "0.5" },
      { sign_error: "outside_page", page: 1 },
    ],
    ["no placement at all", {}, { sign_error: "no_placement" }],
  ])("fails %s with a named INVALID_OPTIONS", async (_, fields, context) => {
    const client = new ApiClient();
    const taskId = await client.start(SIGN, signForm(makePdf(2), await signaturePng(), fields));
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state).toBe("FAILURE");
    expect(last?.error_code).toBe("INVALID_OPTIONS");
    expect(last?.error_context).toMatchObject(context);
  });
});
