/**
 * R2 writes of large bodies leave the isolate's thread to its other requests (worker/r2-body.ts):
 * an upload and a job's output are handed to R2 in slices with a turn of the event loop between
 * them, so timers (and requests waiting on their sockets) run while the file is written, and the
 * stored bytes are exactly the file's.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { createConverterClient } from "../../worker/converter-client.ts";
import { runJob } from "../../worker/job-runner.ts";
import { R2_SLICE_BYTES, r2Body } from "../../worker/r2-body.ts";
import { r2Sink } from "../../worker/upload.ts";
import { paddedPdf } from "../support/padded-pdf.ts";
import { runningTask } from "./running-task.ts";

const MB = 1024 * 1024;

/** Byte `i` of a test file: a pattern that shows any misplaced or lost byte. */
const patternByte = (i: number) => (i * 31 + (i >>> 13)) & 0xff;

function patternBytes(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => patternByte(i));
}

/**
 * Counts the turns of the event loop: a timer that sets itself again each time it fires, until
 * `stop`. A timer fires only after the thread has run its queued tasks and looked at its sockets.
 */
function turnCounter(): { count: () => number; stop: () => void } {
  let turns = 0;
  let stopped = false;
  const tick = () =>
    setTimeout(() => {
      if (stopped) return;
      turns++;
      tick();
    }, 0);
  tick();
  return {
    count: () => turns,
    stop: () => {
      stopped = true;
    },
  };
}

/** env.FILES, recording for each `put` under `/out/` the turns counted from its start to its end. */
function turnsPerOutputPut(counter: { count: () => number }): { files: R2Bucket; turns: number[] } {
  const turns: number[] = [];
  const files = new Proxy(env.FILES, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "put") return typeof value === "function" ? value.bind(target) : value;
      return async (key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) => {
        const before = counter.count();
        const stored = await target.put(key, value, options);
        if (key.includes("/out/")) turns.push(counter.count() - before);
        return stored;
      };
    },
  });
  return { files, turns };
}

async function storedBytes(key: string): Promise<Uint8Array> {
  const object = await env.FILES.get(key);
  expect(object).not.toBeNull();
  return new Uint8Array(await (object as R2ObjectBody).arrayBuffer());
}

function mismatches(actual: Uint8Array, expected: Uint8Array): number {
  let count = Math.abs(actual.length - expected.length);
  for (let i = 0; i < Math.min(actual.length, expected.length); i++) if (actual[i] !== expected[i]) count++;
  return count;
}

describe("R2 writes of large bodies", () => {
  it("stores a 3.4 MB upload in slices, the event loop turning meanwhile, and its bytes intact", async () => {
    const size = Math.round(3.4 * MB);
    const bytes = patternBytes(size);
    const taskId = `t${crypto.randomUUID().replaceAll("-", "")}`;
    async function* arriving() {
      for (let at = 0; at < size; at += 65536) yield bytes.slice(at, at + 65536);
    }
    const counter = turnCounter();
    const stored = await r2Sink(env.FILES, taskId).keep({
      index: 0,
      name: "a.pdf",
      kind: "pdf",
      chunks: arriving(),
    });
    const turns = counter.count();
    counter.stop();
    // One turn between two slices at least (13 for 3.4 MB); a body handed over whole gets none.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(size / R2_SLICE_BYTES) - 1);
    expect(stored.size).toBe(size);
    expect(mismatches(await storedBytes(stored.key), bytes)).toBe(0);
  });

  it("stores a converter job's 3.4 MB output in slices, the event loop turning meanwhile", async () => {
    const input = paddedPdf(3.4 * MB, "noise");
    const task = await runningTask(input, {
      tool: "merge-pdf",
      options: TOOLS["merge-pdf"].options.parse({}),
      name: "a.pdf",
      kind: "pdf",
    });
    const counter = turnCounter();
    const { files, turns } = turnsPerOutputPut(counter);
    const result = await runJob(task, { files, converter: createConverterClient(env) }, () => {});
    counter.stop();
    const output = result.outputs[0];
    expect(output?.size).toBeGreaterThan(3 * MB);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toBeGreaterThanOrEqual(Math.floor((output?.size ?? 0) / R2_SLICE_BYTES) - 1);
    expect((await storedBytes(output?.key ?? "")).length).toBe(output?.size);
  });

  it("hands a body of one slice or less to R2 as it is", () => {
    const small = patternBytes(R2_SLICE_BYTES);
    expect(r2Body(small, small.length)).toBe(small);
    expect(r2Body(patternBytes(R2_SLICE_BYTES + 1), R2_SLICE_BYTES + 1)).toBeInstanceOf(ReadableStream);
  });

  it("stores a stream of chunks of any size intact, and fails the write when the stream fails", async () => {
    const size = 3 * R2_SLICE_BYTES + 4321;
    const bytes = patternBytes(size);
    const chunked = (chunk: number, failAt = Number.POSITIVE_INFINITY) => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= failAt) return controller.error(new Error("the converter's stream broke"));
          if (at >= size) return controller.close();
          controller.enqueue(bytes.slice(at, at + chunk));
          at += chunk;
        },
      });
    };
    for (const chunk of [1000, 65536, 300_000, size]) {
      const key = `r2-body/${chunk}`;
      await env.FILES.put(key, r2Body(chunked(chunk), size));
      expect(mismatches(await storedBytes(key), bytes)).toBe(0);
    }
    await expect(
      env.FILES.put("r2-body/broken", r2Body(chunked(65536, 2 * R2_SLICE_BYTES), size)),
    ).rejects.toThrow();
    expect(await env.FILES.head("r2-body/broken")).toBeNull();
    // A stream longer than announced is refused too, never stored cut.
    await expect(env.FILES.put("r2-body/long", r2Body(chunked(65536), size - 1))).rejects.toThrow();
    expect(await env.FILES.head("r2-body/long")).toBeNull();
  });
});
