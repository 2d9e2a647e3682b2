import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  AppError,
  CONVERTER_STREAM_TYPE,
  type ErrorCode,
  encodeFrame,
  inspectPdfResponseSchema,
} from "../../contract/index.ts";
import {
  type ConverterInput,
  converterClient,
  createConverterClient,
} from "../../worker/converter-client.ts";
import { runJob } from "../../worker/job-runner.ts";
import { JOB_PROGRESS, type TaskRecord } from "../../worker/task-record.ts";
import { makePdf } from "./fixtures.ts";
import { runningTask } from "./running-task.ts";

function pdfInput(bytes: Uint8Array, name = "a.pdf"): ConverterInput {
  return {
    name,
    kind: "pdf",
    size: bytes.length,
    open: async () => ({ body: new Blob([bytes]).stream(), size: bytes.length }),
  };
}

const ignore = { onProgress: () => {}, onFile: async (_: unknown, body: ReadableStream) => body.cancel() };

async function codeOf(promise: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await promise;
    return "no error";
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
}

function pattern(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 7 + 3) % 256);
}

/** A merge task whose one input is stored in R2. */
function storedTask(bytes: Uint8Array, name = "in.pdf"): Promise<TaskRecord> {
  return runningTask(bytes, { tool: "merge-pdf", options: {}, name, kind: "pdf" });
}

/** A converter that answers 200 with `chunks`, then ends or breaks the connection. */
function fakeConverter(chunks: Uint8Array[], ending: "end" | "break") {
  return converterClient(async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        if (ending === "end") controller.close();
        else controller.error(new TypeError("Network connection lost."));
      },
    });
    return new Response(body, { status: 200, headers: { "Content-Type": CONVERTER_STREAM_TYPE } });
  }, "secret");
}

describe("converter client", () => {
  it("is CONVERTER_UNAVAILABLE when the job stream ends early or the connection breaks", async () => {
    const progress = encodeFrame({ type: "progress", percent: 10 });
    const fileHead = encodeFrame({ type: "file", index: 0, kind: "pdf", size: 1000 });
    const cases: [Uint8Array[], "end" | "break"][] = [
      [[progress], "end"],
      [[progress], "break"],
      [[progress, fileHead, new Uint8Array(10)], "end"],
      [[progress, fileHead, new Uint8Array(10)], "break"],
      [[progress, new TextEncoder().encode('{"type":"do')], "end"],
    ];
    for (const [chunks, ending] of cases) {
      const job = fakeConverter(chunks, ending).runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore);
      expect(await codeOf(job)).toBe("CONVERTER_UNAVAILABLE");
    }
  });

  it("turns an error frame into the AppError it carries", async () => {
    const error = { code: "PDF_DAMAGED", message: "x", context: { file_index: 1 } };
    const client = fakeConverter([encodeFrame({ type: "error", error })], "end");
    const job = client.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore);
    await expect(job).rejects.toMatchObject({ code: "PDF_DAMAGED", context: { file_index: 1 } });
  });

  it("runs a job on the real converter: progress, one output of the announced size, facts", async () => {
    const client = createConverterClient(env);
    const percents: number[] = [];
    const files: { index: number; size: number; bytes: Uint8Array }[] = [];
    const { facts } = await client.runJob("merge-pdf", {}, [pdfInput(makePdf(2)), pdfInput(makePdf(3))], {
      onProgress: (percent) => percents.push(percent),
      onFile: async (meta, body) => {
        files.push({ ...meta, bytes: new Uint8Array(await new Response(body).arrayBuffer()) });
      },
    });
    expect(facts).toMatchObject({ pages: 5, files: 2 });
    expect(percents.at(-1)).toBe(100);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(files.map((file) => [file.index, file.bytes.length === file.size])).toEqual([[0, true]]);
    const inspected = await client.inspectPdf(pdfInput(files[0]?.bytes ?? new Uint8Array()));
    expect(inspectPdfResponseSchema.parse(inspected)).toEqual({ pages: 5, repaired: false });
  });

  it("is refused by the converter with a wrong secret (ORIGIN_FORBIDDEN)", async () => {
    const client = createConverterClient({ ...env, CONVERTER_SECRET: "wrong-secret" });
    expect(await codeOf(client.inspectPdf(pdfInput(makePdf(1))))).toBe("ORIGIN_FORBIDDEN");
  });

  it("stores several outputs, each with the announced size, under out/0, out/1 with numbered names", async () => {
    const task = await storedTask(makePdf(1));
    const first = new TextEncoder().encode("%PDF-1.7 first");
    const second = pattern(70_000);
    const frames = [
      encodeFrame({ type: "progress", percent: 50 }),
      encodeFrame({ type: "file", index: 0, kind: "pdf", size: first.length }),
      first,
      encodeFrame({ type: "file", index: 1, kind: "pdf", size: second.length }),
      second,
      encodeFrame({ type: "done", facts: { files: 2 } }),
    ];
    const result = await runJob(
      task,
      { files: env.FILES, converter: fakeConverter(frames, "end") },
      () => {},
    );
    expect(result.facts).toEqual({ files: 2 });
    expect(result.outputs.map(({ key, size, kind }) => ({ key, size, kind }))).toEqual([
      { key: `tasks/${task.id}/out/0`, size: first.length, kind: "pdf" },
      { key: `tasks/${task.id}/out/1`, size: second.length, kind: "pdf" },
    ]);
    expect(result.outputs.map((output) => output.filename)).toEqual(["in-merged.pdf", "in-merged-2.pdf"]);
    const stored = await env.FILES.get(`tasks/${task.id}/out/1`);
    expect(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer())).toEqual(second);
  });

  it("stores outputs under tasks/{id}/out/{index} and maps engine progress into the converting span", async () => {
    const task = await storedTask(makePdf(2), "x\r\nSet-Cookie: a=b.pdf");
    const id = task.id;
    const seen: number[] = [];
    const result = await runJob(task, { files: env.FILES, converter: createConverterClient(env) }, (p) =>
      seen.push(p),
    );
    expect(result.outputs.map((output) => output.key)).toEqual([`tasks/${id}/out/0`]);
    const stored = await env.FILES.get(`tasks/${id}/out/0`);
    expect(stored?.size).toBe(result.outputs[0]?.size);
    const engine = seen.filter((p) => p > JOB_PROGRESS.converting && p < JOB_PROGRESS.converted);
    expect(engine.length).toBeGreaterThan(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});

describe("converter call deadlines", () => {
  /** A converter that accepts the request and never answers (stopped, or a wedged runner). */
  const silent = (path: string, init: RequestInit) => {
    void path;
    return new Promise<Response>((_, reject) => {
      init.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    });
  };

  it("gives up on a silent converter at the deadline with CONVERTER_UNAVAILABLE (retried as QUEUED)", async () => {
    const client = converterClient(silent, "secret", { jobMs: 300, silentMs: 300, inspectMs: 200 });
    const started = Date.now();
    expect(await codeOf(client.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore))).toBe(
      "CONVERTER_UNAVAILABLE",
    );
    expect(await codeOf(client.inspectPdf(pdfInput(makePdf(1))))).toBe("CONVERTER_UNAVAILABLE");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("gives up on a job stream that stops sending frames", async () => {
    const stalled = (_: string, init: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encodeFrame({ type: "progress", percent: 10 }));
          init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
        },
      });
      return Promise.resolve(new Response(body, { headers: { "Content-Type": CONVERTER_STREAM_TYPE } }));
    };
    const client = converterClient(stalled, "secret", { jobMs: 300, silentMs: 300, inspectMs: 200 });
    const seen: number[] = [];
    const handlers = { ...ignore, onProgress: (percent: number) => seen.push(percent) };
    expect(await codeOf(client.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], handlers))).toBe(
      "CONVERTER_UNAVAILABLE",
    );
    expect(seen).toEqual([10]);
  });

  /** A converter that answers 200, sends `beats` frames `everyMs` apart, then (if asked) its result. */
  const beating = (beats: number, everyMs: number, thenDone: boolean) => (_: string, init: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
        for (let i = 0; i < beats; i++) {
          await new Promise((resolve) => setTimeout(resolve, everyMs));
          controller.enqueue(encodeFrame({ type: "heartbeat" }));
        }
        if (!thenDone) return;
        const bytes = makePdf(1);
        controller.enqueue(encodeFrame({ type: "progress", percent: 100 }));
        controller.enqueue(encodeFrame({ type: "file", index: 0, kind: "pdf", size: bytes.length }));
        controller.enqueue(bytes);
        controller.enqueue(encodeFrame({ type: "done", facts: { pages: 1 } }));
        controller.close();
      },
    });
    return Promise.resolve(new Response(body, { headers: { "Content-Type": CONVERTER_STREAM_TYPE } }));
  };

  it("gives up on a converter silent for silentMs long before the job's deadline (it is stopped, not busy)", async () => {
    const deadlines = { jobMs: 60_000, silentMs: 400, inspectMs: 60_000 };
    const started = Date.now();
    // Stopped before it answered, and stopped after two heartbeats.
    expect(
      await codeOf(
        converterClient(silent, "secret", deadlines).runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore),
      ),
    ).toBe("CONVERTER_UNAVAILABLE");
    const stopped = converterClient(beating(2, 100, false), "secret", deadlines);
    expect(await codeOf(stopped.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore))).toBe(
      "CONVERTER_UNAVAILABLE",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("gives a tool whose limit grows with its pages (OCR) the time of its largest job before giving up", async () => {
    // 1.2 s of heartbeats, then the result: past jobMs. The converter may give an OCR job of 40
    // pages 480 s instead of 120 s (contract/job-time.ts), so its deadline is 360 s further.
    const deadlines = { jobMs: 500, silentMs: 400, inspectMs: 60_000 };
    const merge = converterClient(beating(8, 150, true), "secret", deadlines);
    expect(await codeOf(merge.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], ignore))).toBe(
      "CONVERTER_UNAVAILABLE",
    );
    const ocr = converterClient(beating(8, 150, true), "secret", deadlines);
    const options = { languages: "en", redo_text: false };
    const read = {
      onProgress: () => {},
      onFile: async (_: unknown, body: ReadableStream) => void (await new Response(body).arrayBuffer()),
    };
    expect(await codeOf(ocr.runJob("ocr", options, [pdfInput(makePdf(1))], read))).toBe("no error");
  });

  it("waits for a job that runs longer than silentMs as long as heartbeats come", async () => {
    const deadlines = { jobMs: 60_000, silentMs: 400, inspectMs: 60_000 };
    const busy = converterClient(beating(8, 150, true), "secret", deadlines);
    const sizes: number[] = [];
    const { facts } = await busy.runJob("merge-pdf", {}, [pdfInput(makePdf(1))], {
      onProgress: () => {},
      onFile: async (meta, body) => {
        sizes.push((await new Response(body).arrayBuffer()).byteLength, meta.size);
      },
    });
    expect(facts).toEqual({ pages: 1 });
    expect(sizes[0]).toBe(sizes[1]);
  });
});
