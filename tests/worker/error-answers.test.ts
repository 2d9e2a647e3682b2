/**
 * Every answer of the Worker is JSON, and a failure that may pass says when to try again: a 503 (the
 * converter busy or unreachable) and a 500 (our own failure, even one thrown outside the app's error
 * handler) carry `Retry-After`, as a 429 does.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_PATHS, CSRF_COOKIE, CSRF_HEADER, errorEnvelopeSchema } from "../../contract/index.ts";
import type { Env } from "../../worker/env.ts";
import { guardedFetch, SERVER_ERROR_RETRY_AFTER_SECONDS } from "../../worker/http-errors.ts";
import worker from "../../worker/index.ts";
import { ApiClient, form, ORIGIN } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

async function envelope(response: Response) {
  expect(response.headers.get("Content-Type")).toContain("application/json");
  return errorEnvelopeSchema.parse(await response.json());
}

describe("error answers", () => {
  it("answers 503 CONVERTER_UNAVAILABLE as JSON with Retry-After when the converter cannot be reached", async () => {
    const client = new ApiClient();
    const token = await client.csrf();
    const request = new Request(new URL(API_PATHS.validatePdf, ORIGIN), {
      method: "POST",
      body: form("file", [{ name: "a.pdf", bytes: makePdf(1) }]),
      headers: { Cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: token, "CF-Connecting-IP": client.ip },
    });
    // The same Worker, its converter on a port nothing listens on.
    const unreachable: Env = { ...(env as Env), CONVERTER_URL: "http://127.0.0.1:9" };
    const ctx = createExecutionContext();
    const response = await worker.fetch(request as never, unreachable, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(503);
    expect((await envelope(response)).error.code).toBe("CONVERTER_UNAVAILABLE");
    expect(response.headers.get("Retry-After")).toBe(String(SERVER_ERROR_RETRY_AFTER_SECONDS));
  });

  it("answers anything thrown outside the app's error handler as a JSON INTERNAL with Retry-After", async () => {
    const fetch = guardedFetch<Env>(() => {
      throw new TypeError("a defect outside the app");
    });
    const ctx = createExecutionContext();
    const response = await fetch(new Request(`${ORIGIN}/api/health`) as never, env as Env, ctx);
    expect(response.status).toBe(500);
    const body = await envelope(response);
    expect(body.error).toEqual({ code: "INTERNAL", message: "An unexpected error occurred" });
    expect(response.headers.get("Retry-After")).toBe(String(SERVER_ERROR_RETRY_AFTER_SECONDS));
  });
});
