import { describe, expect, it } from "vitest";
import { API_PATHS, CSRF_COOKIE, CSRF_HEADER, TOOLS } from "../../contract/index.ts";
import { SECURITY_HEADERS } from "../../worker/security-headers.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

const pdfs = () => form("files", [{ name: "a.pdf", bytes: makePdf(1) }]);

describe("CSRF token", () => {
  it("reaches the page in the JSON answer only: the cookie is HttpOnly", async () => {
    const response = await new ApiClient().fetch(API_PATHS.csrfToken);
    const { csrf_token } = (await response.json()) as { csrf_token: string };
    const cookie = response.headers.get("Set-Cookie") ?? "";
    expect(cookie.startsWith(`${CSRF_COOKIE}=${csrf_token};`)).toBe(true);
    expect(cookie).toMatch(/;\s*HttpOnly(;|$)/);
  });

  it("answers a signed token and sets it as a strict same-site cookie", async () => {
    const client = new ApiClient();
    const response = await client.fetch(API_PATHS.csrfToken);
    expect(response.status).toBe(200);
    const { csrf_token } = (await response.json()) as { csrf_token: string };
    expect(csrf_token).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    const cookie = response.headers.get("Set-Cookie") ?? "";
    expect(cookie).toContain(`${CSRF_COOKIE}=${csrf_token}`);
    const attributes = cookie
      .split(";")
      .slice(1)
      .map((a) => a.trim());
    expect(attributes).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "SameSite=Strict", "Secure"]));
  });

  it("keeps a valid cookie's token, so several tabs share one", async () => {
    const client = new ApiClient();
    const first = await client.csrf();
    expect(await client.csrf()).toBe(first);
  });

  it("refuses a POST without the header", async () => {
    const client = new ApiClient();
    const token = await client.csrf();
    const response = await client.fetch(TOOLS["merge-pdf"].endpoint.path, {
      method: "POST",
      body: pdfs(),
      headers: { Cookie: `${CSRF_COOKIE}=${token}` },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("CSRF_INVALID");
  });

  it("refuses a header that differs from the cookie", async () => {
    const client = new ApiClient();
    const token = await client.csrf();
    const other = await new ApiClient().csrf();
    const response = await client.fetch(TOOLS["merge-pdf"].endpoint.path, {
      method: "POST",
      body: pdfs(),
      headers: { Cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: other },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("CSRF_INVALID");
  });

  it("refuses a forged pair (header equals cookie, signature wrong)", async () => {
    const client = new ApiClient();
    const real = await client.csrf();
    const [random] = real.split(".");
    const forged = `${random}.${"A".repeat(43)}`;
    const response = await client.fetch(TOOLS["merge-pdf"].endpoint.path, {
      method: "POST",
      body: pdfs(),
      headers: { Cookie: `${CSRF_COOKIE}=${forged}`, [CSRF_HEADER]: forged },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("CSRF_INVALID");
  });

  it("protects DELETE as well", async () => {
    const client = new ApiClient();
    const response = await client.fetch("/api/pdf/task/AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE" });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("CSRF_INVALID");
  });
});

describe("same-origin rule", () => {
  it("refuses another Origin even with a valid CSRF pair", async () => {
    const client = new ApiClient();
    await client.csrf();
    const response = await client.send("POST", TOOLS["merge-pdf"].endpoint.path, pdfs(), {
      Origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("ORIGIN_FORBIDDEN");
  });

  it("refuses requests the browser marks cross-site", async () => {
    const client = new ApiClient();
    const response = await client.fetch(API_PATHS.csrfToken, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("ORIGIN_FORBIDDEN");
  });

  it("accepts the API's own origin", async () => {
    const client = new ApiClient();
    const response = await client.fetch(API_PATHS.csrfToken, {
      headers: { Origin: "https://tools.example", "Sec-Fetch-Site": "same-origin" },
    });
    expect(response.status).toBe(200);
  });
});

describe("API responses", () => {
  it("carry the security headers and no-store, errors included", async () => {
    const client = new ApiClient();
    for (const response of [
      await client.fetch(API_PATHS.csrfToken),
      await client.fetch("/api/pdf/status/not-a-task"),
      await client.fetch(TOOLS["merge-pdf"].endpoint.path, { method: "POST" }),
    ]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS))
        expect(response.headers.get(name)).toBe(value);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("answer unknown API paths with the error envelope and its request id", async () => {
    const response = await new ApiClient().fetch("/api/pdf/nothing-here");
    expect(response.status).toBe(400);
    const body = await errorOf(response);
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.request_id).toBe(response.headers.get("X-Request-Id"));
  });
});
