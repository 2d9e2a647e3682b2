import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_PATHS, statusPath } from "../../contract/index.ts";
import { newTaskId } from "../../worker/task-id.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePng } from "./fixtures.ts";

describe("rate limiting", () => {
  it("checks the limit before reading the body, answers 429 RATE_LIMITED with Retry-After, per client", async () => {
    const client = new ApiClient();
    const bytes = await makePng(4, 4, () => [10, 200, 30, 255]);
    const png = () => form("file", [{ name: "a.png", bytes }], { target_format: "jpg" });
    const statuses: number[] = [];
    for (let i = 0; i < 100 && !statuses.includes(429); i++) {
      statuses.push((await client.send("POST", API_PATHS.imageConvert, png())).status);
    }
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(9);
    expect(statuses.slice(0, limited).every((s) => s === 202)).toBe(true);
    const refused = await client.send("POST", API_PATHS.imageConvert, png());
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await errorOf(refused)).error.code).toBe("RATE_LIMITED");
    // A body the upload reader would refuse (415) is refused for the limit first: nothing of it
    // was read into R2. The same for validate-pdf.
    const text = form("file", [{ name: "notes.txt", bytes: new TextEncoder().encode("plain text") }], {
      target_format: "jpg",
    });
    expect((await client.send("POST", API_PATHS.imageConvert, text)).status).toBe(429);
    const pdfCheck = form("file", [{ name: "notes.txt", bytes: new TextEncoder().encode("plain text") }], {});
    expect((await client.send("POST", API_PATHS.validatePdf, pdfCheck)).status).toBe(429);

    // Another client is not affected.
    expect((await new ApiClient().send("POST", API_PATHS.imageConvert, png())).status).toBe(202);
  });

  it("limits status requests too (generously), with Retry-After", async () => {
    const client = new ApiClient();
    const taskId = await newTaskId(env.CSRF_SECRET);
    const statuses: number[] = [];
    for (let i = 0; i < 2000 && !statuses.includes(429); i++) {
      statuses.push((await client.fetch(statusPath("pdf", taskId))).status);
    }
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(100);
    expect(statuses.slice(0, limited).every((s) => s === 404)).toBe(true);
    const refused = await client.fetch(statusPath("pdf", taskId));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await new ApiClient().fetch(statusPath("pdf", taskId))).status).toBe(404);
  });
});
