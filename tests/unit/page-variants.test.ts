/**
 * bench/site-paint.ts compares a page with the same page without its scripts: both served by one
 * stack through the same local proxy (bench/page-variants.ts), differing only in the HTML the
 * transform gives. Checked on a small HTTP server standing in for the stack: the scripts and the
 * links only they use are gone, every other byte and every header is the same in both variants.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageProxy, startPageProxy, withoutScripts } from "../../bench/page-variants.ts";

const HEAD_KEPT =
  '<meta charset="UTF-8" /><title>Merge PDF</title><style>body{margin:0}</style>' +
  '<link rel="preload" as="font" type="font/woff2" crossorigin href="/static/dist/face.woff2">' +
  '<link rel="icon" type="image/png" href="/static/dist/logo.png" />';
const SCRIPTS =
  '<script type="module" fetchpriority="low" crossorigin src="/static/dist/index-1.js"></script>' +
  '<link rel="modulepreload" fetchpriority="low" crossorigin href="/static/dist/screen-2.js">' +
  '<link rel="preload" as="fetch" crossorigin href="/static/dist/common-3.json">' +
  '<template id="after-paint"><link rel="modulepreload" fetchpriority="low" crossorigin href="/static/dist/start-4.js">' +
  '<link rel="preload" as="fetch" crossorigin href="/static/dist/en-5.json"></template>';
const BODY = '<div id="root"><h1>Merge PDF</h1><p>Drop files</p></div>';
const DATA = '<script type="application/json" id="data">{"a":1}</script>';
const PAGE = `<!doctype html><html><head>${HEAD_KEPT}${SCRIPTS}</head><body>${BODY}${DATA}</body></html>`;
const SCRIPT_FILE = "export const x = 1;\n";

let origin: Server;
let asServed: PageProxy;
let scriptless: PageProxy;

beforeAll(async () => {
  origin = createServer((request, response) => {
    if (request.url === "/tools/merge-pdf") {
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "public, max-age=0, must-revalidate",
        "content-security-policy": "script-src 'self'",
        etag: '"page"',
      });
      // In two writes, as a stack streaming its answer would.
      response.write(PAGE.slice(0, 100));
      response.end(PAGE.slice(100));
      return;
    }
    response.writeHead(200, { "content-type": "text/javascript", etag: '"script"' });
    response.end(SCRIPT_FILE);
  });
  await new Promise<void>((listening) => origin.listen(0, "127.0.0.1", listening));
  const target = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  asServed = await startPageProxy(target);
  scriptless = await startPageProxy(target, withoutScripts);
});

afterAll(async () => {
  await asServed.close();
  await scriptless.close();
  await new Promise((closed) => origin.close(closed));
});

describe("a page with and without its scripts", () => {
  it("removes the script elements and the links only the scripts use, nothing else", () => {
    expect(withoutScripts(PAGE)).toBe(
      `<!doctype html><html><head>${HEAD_KEPT}</head><body>${BODY}</body></html>`,
    );
  });

  it("serves both variants with the same status and headers, and the page as is unchanged", async () => {
    const [page, bare] = await Promise.all([
      fetch(`${asServed.url}/tools/merge-pdf`),
      fetch(`${scriptless.url}/tools/merge-pdf`),
    ]);
    const [pageText, bareText] = await Promise.all([page.text(), bare.text()]);
    expect(pageText).toBe(PAGE);
    expect(bareText).toBe(withoutScripts(PAGE));
    expect(page.status).toBe(bare.status);
    const headers = (response: Response) => {
      const pairs: [string, string][] = [];
      response.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "date") pairs.push([name, value]);
      });
      return pairs;
    };
    expect(headers(bare)).toEqual(headers(page));
    expect(headers(page)).toContainEqual(["etag", '"page"']);
    expect(Number(page.headers.get("content-length"))).toBe(Buffer.byteLength(PAGE));
    expect(Number(bare.headers.get("content-length"))).toBe(Buffer.byteLength(bareText));
  });

  it("passes other files through untouched", async () => {
    const [script, bareScript] = await Promise.all([
      fetch(`${asServed.url}/static/dist/index-1.js`),
      fetch(`${scriptless.url}/static/dist/index-1.js`),
    ]);
    expect(await script.text()).toBe(SCRIPT_FILE);
    expect(await bareScript.text()).toBe(SCRIPT_FILE);
    expect(script.headers.get("etag")).toBe('"script"');
  });
});
