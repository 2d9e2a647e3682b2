/**
 * Refusals over one raw HTTP/1.1 keep-alive connection against the running site (wrangler dev):
 * a body refused part-way must be answered with the JSON envelope, never a reset, and the next
 * request on the same connection must be served normally. No browser is needed.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, inject, it } from "vitest";
import { API_PATHS, CSRF_HEADER, errorEnvelopeSchema, TOOLS } from "../../contract/index.ts";
import { paddedPdf } from "../support/padded-pdf.ts";

const siteUrl = new URL(inject("siteUrl"));
const MB = 1024 * 1024;

interface RawResponse {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: Buffer;
}

/** One connection; requests are written whole, responses parsed from the byte stream in order. */
class Connection {
  readonly socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiters: (() => void)[] = [];
  #closed: Error | null = null;

  constructor() {
    this.socket = connect(Number(siteUrl.port), siteUrl.hostname);
    this.socket.on("data", (data) => {
      this.#buffer = Buffer.concat([this.#buffer, data]);
      this.#wake();
    });
    const fail = (error?: Error) => {
      this.#closed ??= error ?? new Error("connection closed");
      this.#wake();
    };
    this.socket.on("error", fail);
    this.socket.on("close", () => fail());
  }

  #wake(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  async #more(): Promise<void> {
    if (this.#closed) throw this.#closed;
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  send(method: string, path: string, headers: Record<string, string>, body?: Uint8Array): void {
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${siteUrl.host}`, "Connection: keep-alive"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
    this.socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (body === undefined) return;
    for (let at = 0; at < body.length; at += 256 * 1024)
      this.socket.write(body.subarray(at, at + 256 * 1024));
  }

  async response(): Promise<RawResponse> {
    let end = this.#buffer.indexOf("\r\n\r\n");
    while (end < 0) {
      await this.#more();
      end = this.#buffer.indexOf("\r\n\r\n");
    }
    const [statusLine, ...headerLines] = this.#buffer.subarray(0, end).toString("latin1").split("\r\n");
    const headers = new Map<string, string>();
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    this.#buffer = this.#buffer.subarray(end + 4);
    const status = Number(statusLine?.split(" ")[1]);
    if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
      return { status, headers, body: await this.#chunked() };
    }
    const length = Number(headers.get("content-length") ?? 0);
    while (this.#buffer.length < length) await this.#more();
    const body = this.#buffer.subarray(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return { status, headers, body };
  }

  async #chunked(): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (;;) {
      let lineEnd = this.#buffer.indexOf("\r\n");
      while (lineEnd < 0) {
        await this.#more();
        lineEnd = this.#buffer.indexOf("\r\n");
      }
      const size = Number.parseInt(this.#buffer.subarray(0, lineEnd).toString("latin1"), 16);
      while (this.#buffer.length < lineEnd + 2 + size + 2) await this.#more();
      parts.push(this.#buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      this.#buffer = this.#buffer.subarray(lineEnd + 2 + size + 2);
      if (size === 0) return Buffer.concat(parts);
    }
  }
}

function multipart(field: string, files: readonly { name: string; bytes: Uint8Array }[]) {
  const boundary = `----keepalive${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      Buffer.from(file.bytes),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

let open: Connection | undefined;
afterEach(() => open?.socket.destroy());

/** A connection holding a CSRF token and cookie (fetched on that same connection). */
async function session() {
  const connection = new Connection();
  open = connection;
  connection.send("GET", API_PATHS.csrfToken, {});
  const answer = await connection.response();
  expect(answer.status).toBe(200);
  const token = (JSON.parse(answer.body.toString()) as { csrf_token: string }).csrf_token;
  const cookie = (answer.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  return { connection, headers: { [CSRF_HEADER]: token, Cookie: cookie, Origin: siteUrl.origin } };
}

async function expectUsable(connection: Connection): Promise<void> {
  connection.send("GET", API_PATHS.csrfToken, {});
  const next = await connection.response();
  expect(next.status).toBe(200);
  expect(JSON.parse(next.body.toString())).toHaveProperty("csrf_token");
}

function envelopeOf(response: RawResponse) {
  expect(response.headers.get("content-type")).toContain("application/json");
  return errorEnvelopeSchema.parse(JSON.parse(response.body.toString()));
}

describe("refusals on a keep-alive connection", () => {
  it("415 on the second file with 80 MB still to come, then the next request is served", async () => {
    const { connection, headers } = await session();
    const form = multipart("files", [
      { name: "a.pdf", bytes: paddedPdf(2 * MB) },
      { name: "b.txt", bytes: new Uint8Array(1 * MB).fill(0x61) },
      { name: "c.pdf", bytes: paddedPdf(80 * MB) },
    ]);
    connection.send(
      "POST",
      TOOLS["merge-pdf"].endpoint.path,
      { ...headers, "Content-Type": form.contentType },
      form.body,
    );
    const refused = await connection.response();
    expect(refused.status).toBe(415);
    expect(envelopeOf(refused).error.code).toBe("UNSUPPORTED_FILE_TYPE");
    await expectUsable(connection);
  });

  it("413 for a body declared too large, then the next request is served", async () => {
    const { connection, headers } = await session();
    const limit = TOOLS["png-to-jpg"].input.maxFileBytes;
    const png = new Uint8Array(limit + 45 * MB);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const form = multipart("file", [{ name: "big.png", bytes: png }]);
    connection.send(
      "POST",
      `${API_PATHS.imageConvert}?target_format=jpg`,
      { ...headers, "Content-Type": form.contentType },
      form.body,
    );
    const refused = await connection.response();
    expect(refused.status).toBe(413);
    expect(envelopeOf(refused).error.code).toBe("FILE_TOO_LARGE");
    await expectUsable(connection);
  });

  it("403 for a body refused before it is read (no CSRF token), then the next request is served", async () => {
    const { connection } = await session();
    const form = multipart("files", [{ name: "a.pdf", bytes: paddedPdf(3 * MB) }]);
    connection.send(
      "POST",
      TOOLS["merge-pdf"].endpoint.path,
      { "Content-Type": form.contentType },
      form.body,
    );
    const refused = await connection.response();
    expect(refused.status).toBe(403);
    expect(envelopeOf(refused).error.code).toBe("CSRF_INVALID");
    await expectUsable(connection);
  });
});
