import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  API_PATHS,
  deleteTaskResponseSchema,
  downloadPath,
  FILE_KINDS,
  statusPath,
  type TaskStatus,
  TOOLS,
  taskPath,
} from "../../contract/index.ts";
import { taskStub } from "../../worker/task-object.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { damagedPdf, makePdf, startsWithPdfHeader } from "./fixtures.ts";

async function taskObjects(taskId: string): Promise<string[]> {
  const listing = await env.FILES.list({ prefix: `tasks/${taskId}/` });
  return listing.objects.map((o) => o.key);
}

/** Runs a merge of 10 + 20 + 30 pages to SUCCESS; returns the task id and the statuses seen. */
async function mergeSixtyPages(client: ApiClient) {
  const files = [10, 20, 30].map((pages, i) => ({
    name: `part ${i + 1}.pdf`,
    bytes: makePdf(pages, `File ${i + 1}`),
  }));
  const taskId = await client.start(TOOLS["merge-pdf"].endpoint.path, form("files", files));
  const seen = await client.waitForTask("pdf", taskId);
  return { taskId, seen, files };
}

describe("merge through the real converter", () => {
  it("runs PENDING → PROGRESS → SUCCESS with the page count of all files", async () => {
    const client = new ApiClient();
    const underWay = (statuses: readonly TaskStatus[]) =>
      statuses.some(
        (s) => (s.state === "STARTED" || s.state === "PROGRESS") && s.progress > 0 && s.progress < 100,
      );
    // The job is seen under way: the client's first status request races the job, which can end
    // first on a loaded machine, so up to three merges are run until one is watched from its start.
    let run = await mergeSixtyPages(client);
    for (let retry = 0; retry < 2 && !underWay(run.seen); retry++) run = await mergeSixtyPages(client);
    const { taskId, seen, files } = run;
    const last = seen.at(-1);
    expect(last?.state, JSON.stringify(last?.error)).toBe("SUCCESS");
    expect(underWay(seen)).toBe(true);
    // Its progress never went backwards.
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(last?.progress).toBe(100);

    const result = last?.result;
    expect(result?.facts.pages).toBe(60);
    expect(result?.original_filename).toBe("part 1.pdf");
    expect(result?.filename).toBe("part 1-merged.pdf");
    expect(result?.original_size).toBe(files.reduce((sum, f) => sum + f.bytes.byteLength, 0));
    expect(result?.download_url).toBe(downloadPath("pdf", taskId));
    expect(Date.parse(last?.expires_at ?? "")).toBeGreaterThan(Date.now());

    const download = await client.fetch(result?.download_url ?? "");
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe(FILE_KINDS.pdf.mime);
    expect(download.headers.get("Content-Disposition")).toBe(
      `attachment; filename="part 1-merged.pdf"; filename*=UTF-8''part%201-merged.pdf`,
    );
    expect(download.headers.get("Cache-Control")).toBe("no-store");
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(result?.new_size);
    expect(startsWithPdfHeader(bytes)).toBe(true);
    // Checked independently of the job's own facts: the converter's inspector reads the output.
    expect(await client.pageCount(bytes)).toBe(60);
  });

  it("answers the status only under the tool's task type", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [{ name: "a.pdf", bytes: makePdf(1) }]),
    );
    expect((await client.fetch(statusPath("image", taskId))).status).toBe(404);
    expect((await client.fetch(statusPath("pdf", taskId))).status).toBe(200);
    await client.waitForTask("pdf", taskId);
  });

  it("answers 404 TASK_NOT_FOUND for unknown and malformed ids", async () => {
    const client = new ApiClient();
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAA", "short", "../../etc/passwd"]) {
      const response = await client.fetch(statusPath("pdf", encodeURIComponent(id)));
      expect(response.status, id).toBe(404);
      expect((await errorOf(response)).error.code).toBe("TASK_NOT_FOUND");
    }
  });

  it("gives every file a safe download name", async () => {
    const client = new ApiClient();
    const name = 'ré"sumé\u0007 final.pdf';
    const taskId = await client.start(
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [{ name, bytes: makePdf(1) }]),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state).toBe("SUCCESS");
    const disposition =
      (await client.fetch(downloadPath("pdf", taskId))).headers.get("Content-Disposition") ?? "";
    const [, fallback, encoded] =
      /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/.exec(disposition) ?? [];
    expect(fallback).toMatch(/^[\x20-\x7e]+\.pdf$/);
    expect(fallback).not.toMatch(/[\\/"]/);
    const decoded = decodeURIComponent(encoded ?? "");
    expect(decoded).toContain("ré");
    expect(decoded).not.toMatch(/[\\/"]/);
    expect([...decoded].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect(decoded.endsWith("-merged.pdf")).toBe(true);
  });

  it("deletes everything at expiry (the task object's alarm)", async () => {
    const client = new ApiClient();
    const { taskId } = await mergeSixtyPages(client);
    // The three uploads went when the task ended; only the result waits for expiry.
    expect((await taskObjects(taskId)).length).toBe(1);
    const stub = taskStub(env, taskId);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await taskObjects(taskId)).toEqual([]);
    const status = await client.fetch(statusPath("pdf", taskId));
    expect(status.status).toBe(404);
    expect((await client.fetch(downloadPath("pdf", taskId))).status).toBe(404);
    // Nothing is left scheduled either.
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("deletes everything now on DELETE", async () => {
    const client = new ApiClient();
    const { taskId } = await mergeSixtyPages(client);
    const response = await client.send("DELETE", taskPath("pdf", taskId));
    expect(response.status).toBe(200);
    expect(deleteTaskResponseSchema.parse(await response.json())).toEqual({ deleted: true });
    expect(await taskObjects(taskId)).toEqual([]);
    expect((await client.fetch(statusPath("pdf", taskId))).status).toBe(404);
    expect((await client.send("DELETE", taskPath("pdf", taskId))).status).toBe(404);
  });

  it("refuses a download before the task has finished (409 TASK_NOT_READY) or with a bad file number", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [{ name: "a.pdf", bytes: makePdf(40) }]),
    );
    const early = await client.fetch(downloadPath("pdf", taskId));
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    // The merge may finish before the first download attempt; then the download succeeds.
    if (early.status !== 200) {
      expect(early.status).toBe(409);
      expect((await errorOf(early)).error.code).toBe("TASK_NOT_READY");
    }
    expect(last?.state).toBe("SUCCESS");
    expect((await client.fetch(`${downloadPath("pdf", taskId)}?file=x`)).status).toBe(400);
    expect((await client.fetch(`${downloadPath("pdf", taskId)}?file=1`)).status).toBe(404);
  });
});

describe("converter failures", () => {
  it("turn a damaged PDF into FAILURE PDF_DAMAGED", async () => {
    const client = new ApiClient();
    const taskId = await client.start(
      TOOLS["merge-pdf"].endpoint.path,
      form("files", [
        { name: "good.pdf", bytes: makePdf(1) },
        { name: "bad.pdf", bytes: damagedPdf() },
      ]),
    );
    const last = (await client.waitForTask("pdf", taskId)).at(-1);
    expect(last?.state).toBe("FAILURE");
    expect(last?.error_code).toBe("PDF_DAMAGED");
    expect(last?.result).toBeNull();
    expect((await errorOf(await client.fetch(downloadPath("pdf", taskId)))).error.code).toBe(
      "TASK_NOT_READY",
    );
  });

  it("answer validate-pdf with the page count or the error envelope", async () => {
    const client = new ApiClient();
    expect(await client.pageCount(makePdf(3))).toBe(3);
    const damaged = await client.send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "x.pdf", bytes: damagedPdf() }]),
    );
    expect(damaged.status).toBe(422);
    expect((await errorOf(damaged)).error.code).toBe("PDF_DAMAGED");
  });
});
