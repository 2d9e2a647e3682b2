/**
 * receiveUpload and r2Sink inside workerd with the local R2 bucket: files stream into the sink as
 * they arrive, large ones through R2 multipart uploads, and image sizes are checked from headers.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import {
  type FileSink,
  type ReceivedFile,
  r2Sink,
  receiveUpload,
  type UploadPlan,
} from "../../worker/upload.ts";
import { PartBuffer, R2_PART_BYTES } from "../../worker/uploads/r2-sink.ts";
import { makePdf } from "./fixtures.ts";

const MB = 1024 * 1024;
const encoder = new TextEncoder();

const plan = (overrides: Partial<UploadPlan> = {}): UploadPlan => ({
  fileField: "file",
  kinds: ["pdf", "png", "jpeg"],
  maxFiles: 3,
  maxFileBytes: 40 * MB,
  maxTotalBytes: 60 * MB,
  ...overrides,
});

/** Byte `i` of a file: a pattern that shows any misplaced or lost chunk. */
const patternByte = (i: number) => (i * 31 + (i >>> 13)) & 0xff;

/** A multipart upload of one file whose bytes are produced as the Worker pulls them. */
function lazyUpload(filename: string, head: Uint8Array, totalBytes: number) {
  const boundary = `----lazy${crypto.randomUUID()}`;
  let sent = 0;
  let finished = false;
  let closed = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (finished) {
          closed = true;
          return controller.close();
        }
        if (sent === 0) {
          controller.enqueue(
            encoder.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`,
            ),
          );
        }
        if (sent < totalBytes) {
          const size = Math.min(64 * 1024, totalBytes - sent);
          const chunk = new Uint8Array(size);
          for (let i = 0; i < size; i++)
            chunk[i] = sent + i < head.length ? (head[sent + i] ?? 0) : patternByte(sent + i);
          controller.enqueue(chunk);
          sent += size;
        } else {
          controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
          finished = true;
        }
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("https://tools.example/upload", {
    method: "POST",
    body,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
  });
  /** `ended`: the Worker read the body to its end (past the closing boundary's "\r\n"). */
  return { request, pulled: () => sent, ended: () => closed };
}

function formRequest(data: FormData): Request {
  return new Request("https://tools.example/upload", { method: "POST", body: data });
}

/** A sink that records what reaches it, reading each file to its end. */
function recordingSink(onChunk: (file: ReceivedFile, received: number) => void = () => undefined) {
  const kept: { name: string; kind: string; size: number }[] = [];
  const sink: FileSink<string> = {
    async keep(file) {
      let size = 0;
      for await (const chunk of file.chunks) {
        size += chunk.length;
        onChunk(file, size);
      }
      kept.push({ name: file.name, kind: file.kind, size });
      return file.name;
    },
    async discard() {},
  };
  return { sink, kept };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const pdfHead = makePdf(1);

describe("streaming into the sink", () => {
  it("hands the first bytes to the sink long before the body has been read", async () => {
    const upload = lazyUpload("big.pdf", pdfHead, 20 * MB);
    let pulledAtFirstChunk = -1;
    const { sink, kept } = recordingSink((_file, received) => {
      if (pulledAtFirstChunk < 0 && received > 0) pulledAtFirstChunk = upload.pulled();
    });
    await receiveUpload(upload.request, plan(), sink);
    expect(kept).toEqual([{ name: "big.pdf", kind: "pdf", size: 20 * MB }]);
    expect(pulledAtFirstChunk).toBeGreaterThan(0);
    expect(pulledAtFirstChunk).toBeLessThan(1 * MB);
  });

  it("reads the body to its end, past the closing boundary, before the upload is answered", async () => {
    // Bytes left unread when the Worker answers poison wrangler dev's proxy connection: its next
    // requests fail as a plain-text 500 "Network connection lost" (issue 29, point 5).
    const upload = lazyUpload("small.pdf", pdfHead, 200 * 1024);
    const { sink, kept } = recordingSink();
    await receiveUpload(upload.request, plan(), sink);
    expect(kept).toEqual([{ name: "small.pdf", kind: "pdf", size: 200 * 1024 }]);
    expect(upload.ended()).toBe(true);
  });

  it("stores a file larger than one R2 part intact (multipart upload)", async () => {
    const size = 2 * R2_PART_BYTES + 12345;
    const upload = lazyUpload("large.pdf", pdfHead, size);
    const taskId = `t${crypto.randomUUID().replaceAll("-", "")}`;
    const result = await receiveUpload(upload.request, plan(), r2Sink(env.FILES, taskId));
    const stored = result.files[0];
    expect(stored?.size).toBe(size);
    const object = await env.FILES.get(stored?.key ?? "");
    const bytes = new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
    expect(bytes.length).toBe(size);
    expect(bytes.subarray(0, pdfHead.length)).toEqual(pdfHead);
    let mismatches = 0;
    for (let i = pdfHead.length; i < size; i++) if (bytes[i] !== patternByte(i)) mismatches++;
    expect(mismatches).toBe(0);
    expect(object?.customMetadata?.kind).toBe("pdf");
  });

  it("buffers a part in memory that grows with the file: a small file never costs a whole part", async () => {
    /** `size` pattern bytes in chunks of `chunk` bytes, as a request body arrives. */
    async function* chunks(size: number, chunk: number) {
      for (let at = 0; at < size; at += chunk) {
        yield Uint8Array.from({ length: Math.min(chunk, size - at) }, (_, i) => patternByte(at + i));
      }
    }
    const small = new PartBuffer(chunks(3000, 1000));
    expect(Array.from((await small.next()) ?? [])).toEqual(
      Array.from({ length: 3000 }, (_, i) => patternByte(i)),
    );
    expect(await small.next()).toBeNull();
    expect(small.capacity).toBeLessThanOrEqual(64 * 1024);
    // 3.4 MB (the load benchmark's upload): under one part, and so is its buffer.
    const mediumSize = Math.round(3.4 * MB);
    const medium = new PartBuffer(chunks(mediumSize, 65536));
    expect((await medium.next())?.length).toBe(mediumSize);
    expect(medium.capacity).toBeLessThan(R2_PART_BYTES);
    expect(medium.capacity).toBeLessThanOrEqual(2 * mediumSize);
    // Parts stay exactly R2_PART_BYTES, in order, whatever the chunks.
    const size = 2 * R2_PART_BYTES + 777;
    const large = new PartBuffer(chunks(size, 100_003));
    let offset = 0;
    for (let part = await large.next(); part !== null; part = await large.next()) {
      expect(part.length).toBe(Math.min(R2_PART_BYTES, size - offset));
      expect([part[0], part[part.length - 1]]).toEqual([
        patternByte(offset),
        patternByte(offset + part.length - 1),
      ]);
      offset += part.length;
    }
    expect(offset).toBe(size);
    expect(large.capacity).toBe(R2_PART_BYTES);
  });

  it("refuses a file over its limit after the first R2 parts and leaves no object behind", async () => {
    const taskId = `t${crypto.randomUUID().replaceAll("-", "")}`;
    const upload = lazyUpload("over.pdf", pdfHead, 40 * MB);
    const error = await refusal(
      receiveUpload(upload.request, plan({ maxFileBytes: 12 * MB }), r2Sink(env.FILES, taskId)),
    );
    expect(error.code).toBe("FILE_TOO_LARGE");
    expect(error.context?.max_file_bytes).toBe(12 * MB);
    const listing = await env.FILES.list({ prefix: `tasks/${taskId}/` });
    expect(listing.objects).toEqual([]);
    // Drained up to the bound after the refusal, not to the end of the 40 MB body.
    expect(upload.pulled()).toBeLessThan(30 * MB);
  });

  it("refuses the total of several files while streaming", async () => {
    const data = new FormData();
    for (const name of ["a.pdf", "b.pdf"]) {
      const bytes = new Uint8Array(3 * MB);
      bytes.set(pdfHead);
      data.append("file", new File([bytes], name));
    }
    const { sink } = recordingSink();
    const error = await refusal(receiveUpload(formRequest(data), plan({ maxTotalBytes: 5 * MB }), sink));
    expect(error.code).toBe("FILE_TOO_LARGE");
    expect(error.context?.max_total_bytes).toBe(5 * MB);
  });
});

/** A PNG signature and an IHDR declaring `width`×`height` (CRC and image data are not read). */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(64);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...encoder.encode("IHDR")]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return bytes;
}

/** A JPEG whose frame header follows `appBytes` of APP1 segments. */
function jpegHeader(width: number, height: number, appBytes: number): Uint8Array {
  const out: number[] = [0xff, 0xd8];
  for (let left = appBytes; left > 0; left -= 65533) {
    const length = Math.min(65533, left) + 2;
    out.push(0xff, 0xe1, length >> 8, length & 0xff, ...new Uint8Array(length - 2));
  }
  out.push(0xff, 0xc0, 0, 11, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0);
  out.push(0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, ...new Uint8Array(1000));
  return new Uint8Array(out);
}

describe("maxPixels", () => {
  const imagePlan = plan({ kinds: ["png", "jpeg"], maxPixels: 50_000_000 });

  it("refuses a PNG declaring 20000×20000 with IMAGE_TOO_LARGE before the sink sees it", async () => {
    const { sink, kept } = recordingSink();
    let kepts = 0;
    const counting: FileSink<string> = {
      ...sink,
      keep(file) {
        kepts++;
        return sink.keep(file);
      },
    };
    const upload = lazyUpload("huge.png", pngHeader(20_000, 20_000), 8 * MB);
    const error = await refusal(receiveUpload(upload.request, imagePlan, counting));
    expect(error.code).toBe("IMAGE_TOO_LARGE");
    expect(error.context).toMatchObject({ width: 20_000, height: 20_000, maxPixels: 50_000_000 });
    expect(kepts).toBe(0);
    expect(kept).toEqual([]);
  });

  it("keeps a JPEG whose frame header lies after 300 KB of APP segments: only the first 64 KiB are read", async () => {
    // The container's engine reads its size from the whole file before decoding (image-head.test.ts).
    const big = jpegHeader(10_000, 8_000, 300_000);
    const { sink, kept } = recordingSink();
    await receiveUpload(formRequest(formOf("big.jpg", big)), imagePlan, sink);
    expect(kept).toEqual([{ name: "big.jpg", kind: "jpeg", size: big.length }]);
  });

  it("leaves PDFs and plans without maxPixels alone", async () => {
    const { sink, kept } = recordingSink();
    await receiveUpload(formRequest(formOf("huge.png", pngHeader(20_000, 20_000))), plan(), sink);
    expect(kept).toEqual([{ name: "huge.png", kind: "png", size: 64 }]);
  });
});

function formOf(name: string, bytes: Uint8Array): FormData {
  const data = new FormData();
  data.append("file", new File([bytes], name));
  return data;
}

describe("uploaded names", () => {
  it("decodes the browser's %22 and %0D%0A and drops control and format characters", async () => {
    const boundary = "----names";
    const raw = `a%22b%0D%0Ac\u202Egpj.exe\u200B\uFEFF.pdf`;
    const body = new Uint8Array([
      ...encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${raw}"\r\n\r\n`,
      ),
      ...pdfHead,
      ...encoder.encode(`\r\n--${boundary}--\r\n`),
    ]);
    const request = new Request("https://tools.example/upload", {
      method: "POST",
      body,
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const { sink, kept } = recordingSink();
    await receiveUpload(request, plan(), sink);
    expect(kept[0]?.name).toBe('a"bcgpj.exe.pdf');
  });
});
