/**
 * Protect and Unlock through the real Worker and converter: option validation, the named errors,
 * the protected file opened again by unlock and by another tool's password field, and the
 * passwords kept out of the task object's storage, R2 and URLs.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { API_PATHS, TOOLS, validatePdfResponseSchema } from "../../contract/index.ts";
import { type TaskObject, taskStub } from "../../worker/task-object.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf, startsWithPdfHeader } from "./fixtures.ts";

const HINDI = "गुप्त-पासवर्ड१२३";
const PROTECT = TOOLS.protect.endpoint.path;
const UNLOCK = TOOLS.unlock.endpoint.path;

/** Everything the task object has stored, as one JSON text. */
async function storedText(taskId: string): Promise<string> {
  return runInDurableObject(taskStub(env, taskId), async (_instance: TaskObject, state) =>
    JSON.stringify([...state.storage.kv.list()]),
  );
}

/** Every R2 object of the task, keys and metadata. */
async function r2Text(taskId: string): Promise<string> {
  const listing = await env.FILES.list({ prefix: `tasks/${taskId}/`, include: ["customMetadata"] });
  return JSON.stringify(listing.objects.map((o) => [o.key, o.customMetadata]));
}

async function runToEnd(client: ApiClient, path: string, body: FormData) {
  const taskId = await client.start(path, body);
  const last = (await client.waitForTask("pdf", taskId)).at(-1);
  return { taskId, last };
}

async function download(client: ApiClient, url: string | undefined): Promise<Uint8Array> {
  const response = await client.fetch(url ?? "");
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

function contains(bytes: Uint8Array, text: string): boolean {
  return new TextDecoder("latin1").decode(bytes).includes(text);
}

async function protectedPdf(client: ApiClient, pages: number, password: string): Promise<Uint8Array> {
  const { last } = await runToEnd(
    client,
    PROTECT,
    form("file", [{ name: "plan.pdf", bytes: makePdf(pages, "Plan") }], { password }),
  );
  expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
  return download(client, last?.result?.download_url);
}

describe("protect and unlock", () => {
  it("protects with a Hindi password, keeps it out of storage, and unlocks with it", async () => {
    const client = new ApiClient();
    const { taskId, last } = await runToEnd(
      client,
      PROTECT,
      form("file", [{ name: "plan.pdf", bytes: makePdf(3, "Plan") }], {
        password: HINDI,
        owner_password: "owner-secret",
        allow_printing: "false",
      }),
    );
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(last?.result?.filename).toBe("plan-protected.pdf");
    expect(last?.result?.facts).toMatchObject({ pages: 3, encryption: "AES-256", owner_password: true });
    const stored = await storedText(taskId);
    expect(stored).toContain('"tool":"protect"');
    expect(stored).toContain('"allow_printing":false');
    for (const secret of [HINDI, "owner-secret", "secrets"]) expect(stored).not.toContain(secret);
    expect(await r2Text(taskId)).not.toContain("owner-secret");

    const locked = await download(client, last?.result?.download_url);
    expect(startsWithPdfHeader(locked)).toBe(true);
    expect(contains(locked, "/Encrypt")).toBe(true);
    const unopened = await client.send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "p.pdf", bytes: locked }]),
    );
    expect((await errorOf(unopened)).error.code).toBe("PDF_ENCRYPTED");
    const opened = await client.send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "p.pdf", bytes: locked }], { password: HINDI }),
    );
    expect(validatePdfResponseSchema.parse(await opened.json()).total_pages).toBe(3);

    const unlocked = await runToEnd(
      client,
      UNLOCK,
      form("file", [{ name: "plan.pdf", bytes: locked }], { password: HINDI }),
    );
    expect(unlocked.last?.state, JSON.stringify(unlocked.last?.error)).toBe("SUCCESS");
    expect(unlocked.last?.result?.filename).toBe("plan-unlocked.pdf");
    const open = await download(client, unlocked.last?.result?.download_url);
    expect(contains(open, "/Encrypt")).toBe(false);
    expect(await client.pageCount(open)).toBe(3);
    expect(await storedText(unlocked.taskId)).not.toContain(HINDI);
  });

  it("names a wrong password (4xx) and a PDF that is not encrypted", async () => {
    const client = new ApiClient();
    const locked = await protectedPdf(client, 1, "right");
    const wrong = await runToEnd(
      client,
      UNLOCK,
      form("file", [{ name: "a.pdf", bytes: locked }], { password: "wrong" }),
    );
    expect(wrong.last?.state).toBe("FAILURE");
    expect(wrong.last?.error_code).toBe("PDF_WRONG_PASSWORD");
    expect(wrong.last?.error_context).toMatchObject({ file_index: 0, file_name: "a.pdf" });
    expect(await storedText(wrong.taskId)).not.toContain('"wrong"');
    const plain = await runToEnd(
      client,
      UNLOCK,
      form("file", [{ name: "b.pdf", bytes: makePdf(1) }], { password: "x" }),
    );
    expect(plain.last?.error_code).toBe("PDF_NOT_ENCRYPTED");
    const validate = await client.send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "p.pdf", bytes: locked }], { password: "wrong" }),
    );
    expect(validate.status).toBe(422);
    expect((await errorOf(validate)).error.code).toBe("PDF_WRONG_PASSWORD");
  });

  it("unlocks a PDF that opens without a password with none or an empty one; one that needs it asks for it", async () => {
    const client = new ApiClient();
    const ownerOnly = Uint8Array.from(atob(inject("ownerOnlyPdf")), (c) => c.charCodeAt(0));
    expect(contains(ownerOnly, "/Encrypt")).toBe(true);
    for (const fields of [{}, { password: "" }, { password: "a wrong guess" }] as Record<string, string>[]) {
      const { last } = await runToEnd(
        client,
        UNLOCK,
        form("file", [{ name: "statement.pdf", bytes: ownerOnly }], fields),
      );
      expect([fields, last?.state], JSON.stringify(last?.error)).toEqual([fields, "SUCCESS"]);
      const open = await download(client, last?.result?.download_url);
      expect(contains(open, "/Encrypt")).toBe(false);
      expect(await client.pageCount(open)).toBe(2);
    }
    const locked = await protectedPdf(client, 1, "right");
    for (const fields of [{}, { password: "" }] as Record<string, string>[]) {
      const { last } = await runToEnd(
        client,
        UNLOCK,
        form("file", [{ name: "a.pdf", bytes: locked }], fields),
      );
      expect(last?.state).toBe("FAILURE");
      expect(last?.error_code).toBe("PDF_ENCRYPTED");
      expect(last?.error_context).toMatchObject({ file_index: 0, file_name: "a.pdf" });
    }
  });

  it("lets merge open a protected input with the password typed beside it", async () => {
    const client = new ApiClient();
    const locked = await protectedPdf(client, 2, HINDI);
    const files = [
      { name: "open.pdf", bytes: makePdf(1, "Open") },
      { name: "locked.pdf", bytes: locked },
    ];
    const refused = await runToEnd(client, TOOLS["merge-pdf"].endpoint.path, form("files", files));
    expect(refused.last?.error_code).toBe("PDF_ENCRYPTED");
    const merged = await runToEnd(
      client,
      TOOLS["merge-pdf"].endpoint.path,
      form("files", files, { passwords: JSON.stringify(["", HINDI]) }),
    );
    expect(merged.last?.state, JSON.stringify(merged.last?.error)).toBe("SUCCESS");
    expect(merged.last?.result?.facts.pages).toBe(3);
    expect(await storedText(merged.taskId)).not.toContain(HINDI);
  });

  it.each([
    ["no password", {}, ""],
    ["an empty password", { password: "" }, ""],
    ["a permission that is not true/false", { password: "p", allow_printing: "maybe" }, ""],
    ["a password in the URL", { password: "p" }, "?password=p"],
  ])("refuses %s with 400 INVALID_OPTIONS", async (_, fields, query) => {
    const client = new ApiClient();
    const response = await client.send(
      "POST",
      `${PROTECT}${query}`,
      form("file", [{ name: "a.pdf", bytes: makePdf(1) }], fields),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("INVALID_OPTIONS");
  });

  it("describes both endpoints in the OpenAPI document with write-only password fields", async () => {
    const doc = (await (await new ApiClient().fetch(API_PATHS.openapi)).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    for (const path of [PROTECT, UNLOCK]) {
      const schema = JSON.stringify(doc.paths[path]?.post.requestBody.content["multipart/form-data"]?.schema);
      expect(schema).toContain('"password":{');
      expect(schema).toContain('"format":"password"');
      expect(schema).toContain('"writeOnly":true');
    }
    expect(JSON.stringify(doc.paths[PROTECT])).toContain("allow_annotations");
  });
});
