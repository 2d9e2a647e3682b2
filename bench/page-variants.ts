import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The page as it would be served with its scripts removed: no `<script>` element (the entry module
 * and any data a script reads) and none of the `<link>` hints that only the scripts use (module
 * preloads, `preload as="fetch"` of the locale files the app loads before hydrating), nor the
 * template that holds them until the entry announces them (client/src/lib/announce-after-paint.ts).
 * Everything else (markup, inlined stylesheet, font and image preloads) is kept byte for byte.
 */
export function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<template id="after-paint">[\s\S]*?<\/template>/gi, "")
    .replace(/<link\b(?=[^>]*\brel=["']?modulepreload\b)[^>]*>/gi, "")
    .replace(/<link\b(?=[^>]*\brel=["']?preload\b)(?=[^>]*\bas=["']?fetch\b)[^>]*>/gi, "");
}

export interface PageProxy {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A local proxy in front of `target` that passes every request through and gives HTML answers to
 * `transform` before sending them on. Both variants a benchmark compares go through one of these
 * (the identity for the page as it is), so they are served by the same stack with the same headers,
 * the same caching and the same delivery (each HTML body sent whole, unencoded, with its length);
 * only the transform differs.
 */
export async function startPageProxy(
  target: string,
  transform: (html: string) => string = (html) => html,
): Promise<PageProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, host: upstream.host, "accept-encoding": "identity" };
    const forwarded = request(
      new URL(incoming.url ?? "/", upstream),
      { method: incoming.method, headers, agent },
      (answer) => {
        const status = answer.statusCode ?? 502;
        if (!String(answer.headers["content-type"] ?? "").startsWith("text/html")) {
          outgoing.writeHead(status, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const parts: Buffer[] = [];
        answer.on("data", (part: Buffer) => parts.push(part));
        answer.on("end", () => {
          const body = Buffer.from(transform(Buffer.concat(parts).toString("utf8")), "utf8");
          const { "transfer-encoding": _chunked, ...rest } = answer.headers;
          outgoing.writeHead(status, { ...rest, "content-length": body.length });
          outgoing.end(body);
        });
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
