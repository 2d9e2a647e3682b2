/**
 * The blog's files (spec §7: metadata.json, posts/{slug}.md, images, attachments) under
 * /content/blog/. By default they come from the deployed assets (the client build copies
 * content/blog there); when BLOG_CONTENT_BASE names a public content repository (for example
 * https://raw.githubusercontent.com/<owner>/<repo>/main/blog), they are fetched from it with the
 * same layout. Either way the browser reads them from this origin, so the CSP needs no other origin.
 */
import type { Hono } from "hono";
import { BLOG_CONTENT_PATH, contentFilePath } from "./blog-content-types.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";

/** Readers may see a new post up to this late (seconds). */
const MAX_AGE = 300;
/** A content repository that does not answer within this time is treated as failing. */
const UPSTREAM_TIMEOUT_MS = 10_000;

function plainText(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: {
      ...SECURITY_HEADERS,
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "no-store",
    },
  });
}

/** The bindings this route reads (a subset of the Worker's Env, so it runs on any Hono app). */
export interface BlogContentEnv {
  ASSETS: { fetch(input: URL | RequestInfo, init?: RequestInit): Promise<Response> };
  BLOG_CONTENT_BASE?: string;
}

async function upstream(env: BlogContentEnv, path: string, request: Request): Promise<Response> {
  const base = env.BLOG_CONTENT_BASE?.trim();
  if (base) {
    // Cached at the edge as long as browsers keep it (`cf` is ignored outside Workers).
    const init: RequestInit & { cf?: { cacheTtl: number } } = {
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      cf: { cacheTtl: MAX_AGE },
    };
    return fetch(`${base.replace(/\/+$/, "")}/${path}`, init);
  }
  return env.ASSETS.fetch(new URL(`${BLOG_CONTENT_PATH}${path}`, request.url));
}

export function registerBlogContentRoute<E extends { Bindings: BlogContentEnv }>(app: Hono<E>): void {
  app.get(`${BLOG_CONTENT_PATH}*`, async (c) => {
    const file = contentFilePath(c.req.path.slice(BLOG_CONTENT_PATH.length));
    if (file === null) return plainText(404, "Not found");
    let response: Response;
    try {
      response = await upstream(c.env, file.path, c.req.raw);
    } catch {
      return plainText(502, "Content repository unavailable");
    }
    // The assets answer a missing file with the SPA's index.html (not_found_handling).
    if (!response.ok || response.headers.get("Content-Type")?.startsWith("text/html"))
      return plainText(404, "Not found");
    return new Response(response.body, {
      headers: {
        ...SECURITY_HEADERS,
        "Content-Type": file.type,
        "Cache-Control": `public, max-age=${MAX_AGE}`,
        // Shown inline (images, the PDF viewer, the video player), never as a page of this site.
        "Content-Disposition": "inline",
      },
    });
  });
}
