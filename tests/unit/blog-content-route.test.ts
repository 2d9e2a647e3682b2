/**
 * The Worker's /content/blog/* route (worker/blog-content-route.ts) on Hono in Node: from the
 * deployed assets by default, from a content repository when BLOG_CONTENT_BASE is set (a local
 * HTTP server stands in for it), typed by extension, the SPA fallback and traversal refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlogContentEnv, registerBlogContentRoute } from "../../worker/blog-content-route.ts";

const app = new Hono<{ Bindings: BlogContentEnv }>();
registerBlogContentRoute(app);

const INDEX_HTML = "<!doctype html><title>app</title>";
/** Files of the fake repository (and of the fake assets), by path below the base. */
const FILES: Record<string, string> = {
  "metadata.json": '{"posts":[]}',
  "posts/hello.md": "# Hello",
};
let server: Server;
let repository = "";
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? "");
    const body = FILES[(request.url ?? "").replace(/^\/repo\//, "")];
    response.writeHead(body === undefined ? 404 : 200, { "Content-Type": "text/plain" });
    response.end(body ?? "missing");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  repository = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo/`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** The assets binding: content files under /content/blog/, anything else the SPA's index.html. */
const ASSETS = {
  fetch: async (input: URL | string) => {
    const path = new URL(String(input)).pathname.replace(/^\/content\/blog\//, "");
    const body = FILES[path];
    return body === undefined
      ? new Response(INDEX_HTML, { headers: { "Content-Type": "text/html" } })
      : new Response(body, { headers: { "Content-Type": "application/octet-stream" } });
  },
};

const get = (path: string, env: BlogContentEnv) =>
  app.request(`https://site.example/content/blog/${path}`, {}, env);

describe("blog content route", () => {
  it("serves the deployed copy by default, typed by extension, with the security headers", async () => {
    const response = await get("metadata.json", { ASSETS, BLOG_CONTENT_BASE: "" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
    expect(await response.text()).toBe('{"posts":[]}');
    const body = await get("posts/hello.md", { ASSETS });
    expect(body.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
  });

  it("answers 404, not the SPA page, for a missing file", async () => {
    const response = await get("posts/missing.md", { ASSETS });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("<title>");
  });

  it("reads from BLOG_CONTENT_BASE when set, same layout", async () => {
    const response = await get("posts/hello.md", { ASSETS, BLOG_CONTENT_BASE: repository });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/markdown; charset=utf-8");
    expect(await response.text()).toBe("# Hello");
    expect(requested).toContain("/repo/posts/hello.md");
    expect((await get("posts/missing.md", { ASSETS, BLOG_CONTENT_BASE: repository })).status).toBe(404);
  });

  it("answers 502 when the content repository is down", async () => {
    const response = await get("metadata.json", { ASSETS, BLOG_CONTENT_BASE: "http://127.0.0.1:9/" });
    expect(response.status).toBe(502);
  });

  it("refuses paths outside the content and types that could act as pages", async () => {
    const before = requested.length;
    for (const path of ["..%2Fwrangler.toml", "posts/x.html", "images/a.svg", ".dev.vars"])
      expect((await get(path, { ASSETS, BLOG_CONTENT_BASE: repository })).status, path).toBe(404);
    expect(requested.length).toBe(before);
  });
});
