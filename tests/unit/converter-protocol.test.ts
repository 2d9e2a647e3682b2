import { describe, expect, it } from "vitest";
import {
  encodeFrame,
  FrameReader,
  inputFileFrameSchema,
  type JobStreamFile,
  jobFrameSchema,
  jobStreamLength,
  TOOL_IDS,
  TOOLS,
  TruncatedStreamError,
  writeJobStream,
} from "../../contract/index.ts";

/** A stream giving `bytes` in pieces of `size` bytes: frame boundaries fall anywhere. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

function pattern(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256);
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The job stream of `files` as written by writeJobStream, and its announced length. */
async function encodeJob(options: unknown, files: readonly JobStreamFile[]) {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const written = writeJobStream(writable, options, files);
  const [bytes] = await Promise.all([bytesOf(readable), written]);
  return { bytes, length: jobStreamLength(options, files) };
}

describe("converter job stream codec", () => {
  it("round-trips a job: header, options, files byte for byte, whatever the chunking", async () => {
    // A file containing newlines and JSON-like bytes must not confuse the reader.
    const files = [pattern(9_000, 1), new TextEncoder().encode('{"type":"file"}\n\n'), new Uint8Array(0)];
    const job = await encodeJob(
      { quality: "high" },
      files.map((bytes, i) => ({
        name: `f\n${i}.pdf`,
        kind: "pdf" as const,
        size: bytes.length,
        open: async () => ({ body: chunked(bytes, 1000), size: bytes.length }),
      })),
    );
    const encoded = job.bytes;
    expect(encoded.length).toBe(job.length);
    for (const size of [1, 7, 4096, encoded.length]) {
      const reader = new FrameReader(chunked(encoded, size));
      expect(jobFrameSchema.parse(await reader.header())).toEqual({
        type: "job",
        options: { quality: "high" },
        files: 3,
      });
      for (const [i, bytes] of files.entries()) {
        const frame = inputFileFrameSchema.parse(await reader.header());
        expect(frame).toEqual({ type: "file", name: `f\n${i}.pdf`, kind: "pdf", size: bytes.length });
        expect(await bytesOf(reader.body(frame.size))).toEqual(bytes);
      }
      expect(await reader.header()).toBeNull();
    }
  });

  it("reports a stream cut inside a header or a body as truncated", async () => {
    const head = encodeFrame({ type: "file", index: 0, kind: "pdf", size: 100 });
    const cutHeader = new FrameReader(chunked(head.subarray(0, 10), 4));
    await expect(cutHeader.header()).rejects.toBeInstanceOf(TruncatedStreamError);
    const cutBody = new FrameReader(chunked(new Uint8Array([...head, 1, 2, 3]), 2));
    await cutBody.header();
    await expect(bytesOf(cutBody.body(100))).rejects.toBeInstanceOf(TruncatedStreamError);
  });

  it("refuses an input longer or shorter than announced", async () => {
    for (const actual of [9, 11]) {
      const job = encodeJob({}, [
        {
          name: "a",
          kind: "pdf",
          size: 10,
          open: async () => ({ body: chunked(new Uint8Array(actual), 3), size: actual }),
        },
      ]);
      await expect(job).rejects.toThrow(/announced/);
    }
  });

  it("options of every available tool: the schema accepts its own output (validated once in the converter)", () => {
    for (const id of TOOL_IDS.filter((tool) => TOOLS[tool].available)) {
      const schema = TOOLS[id].options;
      // Fields a request must carry (a password) get a form value; the others take their defaults.
      const required = Object.entries(schema.shape).filter(
        ([, field]) => !field.safeParse(undefined).success,
      );
      const output = schema.parse(Object.fromEntries(required.map(([name]) => [name, "1"])));
      expect(schema.safeParse(JSON.parse(JSON.stringify(output))).success, id).toBe(true);
    }
  });
});
