/**
 * How a converter job reads its stored inputs from R2: the first one (which the job stream sends
 * first) opened once, at the start, instead of a `head` to check it is there and a `get` later;
 * the others checked at the start and opened when the stream reaches them.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AppError, TOOLS } from "../../contract/index.ts";
import { type ConverterClient, createConverterClient } from "../../worker/converter-client.ts";
import { runJob } from "../../worker/job-runner.ts";
import { inputKey } from "../../worker/task-files.ts";
import type { TaskRecord } from "../../worker/task-record.ts";
import { makePdf } from "./fixtures.ts";
import { runningTask } from "./running-task.ts";

/** The test's bucket, counting the reads of each key by kind. */
function countingBucket(): { files: R2Bucket; reads: string[] } {
  const reads: string[] = [];
  const files = new Proxy(env.FILES, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== "get" && property !== "head")
        return typeof value === "function" ? value.bind(target) : value;
      return (key: string, ...rest: unknown[]) => {
        reads.push(`${property} ${key}`);
        return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
      };
    },
  });
  return { files, reads };
}

async function mergeOfTwo(): Promise<TaskRecord> {
  const first = makePdf(1);
  const second = makePdf(2);
  const task = await runningTask(first, {
    tool: "merge-pdf",
    options: TOOLS["merge-pdf"].options.parse({}),
    name: "a.pdf",
    kind: "pdf",
  });
  await env.FILES.put(inputKey(task.id, 1), second);
  return {
    ...task,
    inputs: [...task.inputs, { key: inputKey(task.id, 1), name: "b.pdf", size: second.length, kind: "pdf" }],
  };
}

describe("a converter job's inputs", () => {
  it("opens the first input once and only checks the others before the converter's request", async () => {
    const task = await mergeOfTwo();
    const { files, reads } = countingBucket();
    const result = await runJob(task, { files, converter: createConverterClient(env) }, () => {});
    expect(result.facts.pages).toBe(3);
    const [first, second] = task.inputs.map((input) => input.key);
    expect(reads.filter((read) => read.endsWith(first ?? "?"))).toEqual([`get ${first}`]);
    expect(reads.filter((read) => read.endsWith(second ?? "?"))).toEqual([`head ${second}`, `get ${second}`]);
  });

  it("answers TASK_NOT_FOUND when an input is gone, and releases the first one when the converter is busy", async () => {
    const gone = await mergeOfTwo();
    await env.FILES.delete(gone.inputs[1]?.key ?? "");
    const converter = createConverterClient(env);
    const missing = runJob(gone, { files: env.FILES, converter }, () => {});
    await expect(missing).rejects.toMatchObject({ code: "TASK_NOT_FOUND" });

    const task = await mergeOfTwo();
    let calls = 0;
    const busy: ConverterClient = {
      ...converter,
      runJob: async () => {
        calls++;
        throw new AppError("CONVERTER_BUSY", "busy");
      },
    };
    await expect(runJob(task, { files: env.FILES, converter: busy }, () => {})).rejects.toMatchObject({
      code: "CONVERTER_BUSY",
    });
    expect(calls).toBe(1);
    // The retry finds the inputs as they were.
    const retried = await runJob(task, { files: env.FILES, converter }, () => {});
    expect(retried.facts.pages).toBe(3);
  });
});
