/**
 * byteReader inside workerd: a native byte stream fed in small pieces is read in large gathered
 * reads (the Worker's uploads and converter answers), a small read does not wait for more bytes
 * than it asks for, and a stream JavaScript made is read as its own chunks.
 */
import { describe, expect, it } from "vitest";
import { byteReader, LARGE_READ_BYTES } from "../../contract/index.ts";
import { concatBytes } from "../../engines/bytes.ts";

const pattern = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 7 + (i >>> 9)) & 0xff);

/** A native stream (what a request or response body is) written in `piece`-byte writes. */
function nativeStream(bytes: Uint8Array, piece: number): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter();
  void (async () => {
    for (let at = 0; at < bytes.length; at += piece) await writer.write(bytes.slice(at, at + piece));
    await writer.close();
  })();
  return readable;
}

async function readAll(stream: ReadableStream<Uint8Array>, min: number): Promise<Uint8Array[]> {
  const reader = byteReader(stream);
  const reads: Uint8Array[] = [];
  for (let next = await reader.read(min); next !== null; next = await reader.read(min)) reads.push(next);
  return reads;
}

describe("byteReader in workerd", () => {
  it("gathers a native stream written 4 KB at a time into reads of LARGE_READ_BYTES", async () => {
    const bytes = pattern(LARGE_READ_BYTES * 5 + 1234);
    const reads = await readAll(nativeStream(bytes, 4096), LARGE_READ_BYTES);
    expect(reads.map((read) => read.length)).toEqual([...Array(5).fill(LARGE_READ_BYTES), 1234]);
    expect(concatBytes(reads)).toEqual(bytes);
  });

  it("answers a read of 1 byte with what has arrived, without waiting for more", async () => {
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    const reader = byteReader(readable);
    void writer.write(new Uint8Array([1, 2, 3]));
    const first = await Promise.race([
      reader.read(1),
      new Promise<"waited">((resolve) => setTimeout(() => resolve("waited"), 1000)),
    ]);
    expect(first).toEqual(new Uint8Array([1, 2, 3]));
    void writer.close();
    expect(await reader.read(1)).toBeNull();
  });

  it("reads a stream JavaScript made chunk by chunk, whole", async () => {
    const bytes = pattern(10_000);
    const made = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3000) controller.enqueue(bytes.slice(at, at + 3000));
        controller.close();
      },
    });
    const reads = await readAll(made, LARGE_READ_BYTES);
    expect(reads.map((read) => read.length)).toEqual([3000, 3000, 3000, 1000]);
    expect(concatBytes(reads)).toEqual(bytes);
  });
});
