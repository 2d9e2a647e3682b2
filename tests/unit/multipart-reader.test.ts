import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartError, MultipartReader } from "../../worker/uploads/multipart-reader.ts";

const encoder = new TextEncoder();
const BOUNDARY = "----form7MA4YWxkTrZu0gW";

/** A deterministic pseudo-random generator, so a failing split can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A stream of `bytes` cut at the given sizes (cycled), counting what the reader pulled. */
function chunked(bytes: Uint8Array, sizes: () => number) {
  let at = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        const size = Math.max(1, Math.floor(sizes()));
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => Math.min(at, bytes.length) };
}

interface Part {
  readonly name?: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly body: Uint8Array;
}

function build(parts: readonly Part[], preamble = "", epilogue = ""): Uint8Array {
  const chunks: Uint8Array[] = [encoder.encode(preamble)];
  for (const part of parts) {
    let head = `--${BOUNDARY}\r\n`;
    if (part.name !== undefined) {
      head += `Content-Disposition: form-data; name="${part.name}"`;
      if (part.filename !== undefined) head += `; filename="${part.filename}"`;
      head += "\r\n";
    }
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(encoder.encode(`${head}\r\n`), part.body, encoder.encode("\r\n"));
  }
  chunks.push(encoder.encode(`--${BOUNDARY}--\r\n${epilogue}`));
  const total = chunks.reduce((sum, c) => sum + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

async function readAll(stream: ReadableStream<Uint8Array>, maxHeaderBytes = 8192) {
  const reader = new MultipartReader(stream, BOUNDARY, { maxHeaderBytes });
  const parts: Part[] = [];
  for (let head = await reader.nextPart(); head !== null; head = await reader.nextPart()) {
    const chunks: number[] = [];
    for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) chunks.push(...chunk);
    parts.push({ ...head, body: new Uint8Array(chunks) });
  }
  return parts;
}

/** Bodies full of near-misses: CRLFs, dashes and boundary prefixes. */
function trickyBody(seed: number, length: number): Uint8Array {
  const next = random(seed);
  const alphabet = encoder.encode(`\r\n-${BOUNDARY.slice(0, 10)}x`);
  const body = new Uint8Array(length);
  for (let i = 0; i < length; i++) body[i] = alphabet[Math.floor(next() * alphabet.length)] ?? 0;
  return body;
}

describe("MultipartReader", () => {
  const parts: Part[] = [
    { name: "options", body: encoder.encode("quality=80") },
    { name: "empty", body: new Uint8Array(0) },
    { name: "files", filename: "a.pdf", contentType: "application/pdf", body: trickyBody(1, 5000) },
    { name: "files", filename: "", contentType: "application/octet-stream", body: new Uint8Array(0) },
    { name: "files", filename: "b.bin", body: trickyBody(2, 777) },
    { name: "crlf", body: encoder.encode("\r\n\r\n--\r\n-") },
  ];
  const body = build(parts, "preamble text\r\n", "epilogue\r\n--not-a-boundary");

  it.each([1, 2, 3, 7, 41, 42, 43, 1000, body.length])(
    "reads every part with chunks of %i bytes",
    async (size) => {
      expect(await readAll(chunked(body, () => size).stream)).toEqual(parts);
    },
  );

  it("reads every part whatever the random chunk boundaries", async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const { stream } = chunked(body, () => 1 + next() * 90);
      expect(await readAll(stream), `seed ${seed}`).toEqual(parts);
    }
  }, 30_000);

  it("accepts a body without preamble whose first line is the boundary", async () => {
    const only = build([{ name: "a", body: encoder.encode("1") }]);
    expect(only[0]).toBe("-".charCodeAt(0));
    expect(await readAll(chunked(only, () => 3).stream)).toEqual([{ name: "a", body: encoder.encode("1") }]);
  });

  it("decodes UTF-8 names and quoted parameters holding ; and escapes", async () => {
    const raw = encoder.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="r\u00e9sum\u00e9; \\"v2\\".pdf"\r\n\r\nx\r\n--${BOUNDARY}--`,
    );
    const [part] = await readAll(chunked(raw, () => 5).stream);
    expect(part?.filename).toBe('r\u00e9sum\u00e9; "v2".pdf');
  });

  it("refuses part headers over the limit without reading much further", async () => {
    const huge = encoder.encode(
      `--${BOUNDARY}\r\nX-Pad: ${"a".repeat(100_000)}\r\n\r\nbody\r\n--${BOUNDARY}--`,
    );
    const source = chunked(huge, () => 512);
    await expect(readAll(source.stream, 1024)).rejects.toThrow(MultipartError);
    expect(source.pulled()).toBeLessThan(4096);
  });

  it("refuses a body cut before its closing boundary", async () => {
    const cut = build([{ name: "a", body: encoder.encode("hello") }]).slice(0, -8);
    await expect(readAll(chunked(cut, () => 4).stream)).rejects.toThrow(MultipartError);
  });

  it("refuses a body without any boundary", async () => {
    await expect(readAll(chunked(encoder.encode("no parts here"), () => 4).stream)).rejects.toThrow(
      MultipartError,
    );
  });

  it("pulls from the source only as the consumer reads (backpressure)", async () => {
    const big = build([{ name: "f", filename: "f.bin", body: new Uint8Array(10_000_000) }]);
    const source = chunked(big, () => 65536);
    const reader = new MultipartReader(source.stream, BOUNDARY, { maxHeaderBytes: 8192 });
    await reader.nextPart();
    let received = 0;
    for (let i = 0; i < 5; i++) received += (await reader.read())?.length ?? 0;
    // A few source chunks, never the whole 10 MB body.
    expect(source.pulled()).toBeLessThanOrEqual(6 * 65536);
    expect(source.pulled() - received).toBeLessThanOrEqual(65536 + 200);
  });

  it("drains the rest of the body up to a bound", async () => {
    const big = build([{ name: "f", filename: "f.bin", body: new Uint8Array(1_000_000) }]);
    const all = chunked(big, () => 65536);
    const reader = new MultipartReader(all.stream, BOUNDARY, { maxHeaderBytes: 8192 });
    await reader.nextPart();
    expect(await reader.drain(2_000_000)).toBe(true);
    expect(all.pulled()).toBe(big.length);

    const bounded = chunked(big, () => 65536);
    const short = new MultipartReader(bounded.stream, BOUNDARY, { maxHeaderBytes: 8192 });
    await short.nextPart();
    expect(await short.drain(100_000)).toBe(false);
    expect(bounded.pulled()).toBeLessThan(300_000);
  });
});

describe("boundaryOf", () => {
  it("reads plain and quoted boundaries of multipart/form-data only", () => {
    expect(boundaryOf("multipart/form-data; boundary=abc")).toBe("abc");
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(boundaryOf("multipart/mixed; boundary=abc")).toBeNull();
    expect(boundaryOf("multipart/form-data")).toBeNull();
    expect(boundaryOf(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeNull();
  });
});
