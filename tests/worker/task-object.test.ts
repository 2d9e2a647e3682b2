import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createConverterClient } from "../../worker/converter-client.ts";
import { inputKey } from "../../worker/task-files.ts";
import { newTaskId } from "../../worker/task-id.ts";
import { MAX_JOB_ATTEMPTS, type TaskObject, taskStub } from "../../worker/task-object.ts";
import { type NewTask, TASK_RECORD_KEY, type TaskRecord } from "../../worker/task-record.ts";
import { makePdf } from "./fixtures.ts";

/** Stores two PDFs (1 + 2 pages) as a merge task's uploads. */
async function mergeTask(): Promise<NewTask> {
  const id = newTaskId();
  const files = [makePdf(1), makePdf(2)];
  await Promise.all(files.map((bytes, i) => env.FILES.put(inputKey(id, i), bytes)));
  return {
    id,
    tool: "merge-pdf",
    options: {},
    inputs: files.map((bytes, i) => ({
      key: inputKey(id, i),
      name: `in${i}.pdf`,
      size: bytes.byteLength,
      kind: "pdf",
    })),
  };
}

function storedRecord(task: NewTask, patch: Partial<TaskRecord>): TaskRecord {
  const now = Date.now();
  return {
    ...task,
    createdAt: now,
    expiresAt: now + 3_600_000,
    state: "PENDING",
    progress: 0,
    attempts: 0,
    running: false,
    outputs: [],
    facts: {},
    error: null,
    ...patch,
  };
}

async function waitForEnd(stub: DurableObjectStub<TaskObject>, timeoutMs = 20_000): Promise<TaskRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await stub.snapshot();
    if (record !== null && (record.state === "SUCCESS" || record.state === "FAILURE")) return record;
    if (Date.now() > deadline) throw new Error(`still ${record?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Puts a record straight into a task object, with an alarm far enough away not to fire by itself. */
async function seed(record: TaskRecord): Promise<DurableObjectStub<TaskObject>> {
  const stub = taskStub(env, record.id);
  await runInDurableObject(stub, async (_instance: TaskObject, state) => {
    state.storage.kv.put(TASK_RECORD_KEY, record);
    await state.storage.setAlarm(Date.now() + 3_600_000);
  });
  return stub;
}

describe("task object", () => {
  it("retries an unreachable converter a bounded number of times, then fails CONVERTER_UNAVAILABLE", async () => {
    const task = await mergeTask();
    const stub = taskStub(env, task.id);
    await runInDurableObject(stub, async (instance: TaskObject) => {
      // Nothing listens on port 1: every connection is refused.
      instance.converter = createConverterClient({
        CONVERTER_URL: "http://127.0.0.1:1",
        CONVERTER: env.CONVERTER,
      });
      await instance.create(task);
    });
    const record = await waitForEnd(stub);
    expect(record.state).toBe("FAILURE");
    expect(record.error?.code).toBe("CONVERTER_UNAVAILABLE");
    expect(record.attempts).toBe(MAX_JOB_ATTEMPTS);
    expect(record.running).toBe(false);
  });

  it("resumes a job found interrupted when attempts remain", async () => {
    const task = await mergeTask();
    const stub = await seed(
      storedRecord(task, { state: "PROGRESS", progress: 25, attempts: 1, running: true }),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const record = await stub.snapshot();
    expect(record?.state).toBe("SUCCESS");
    expect(record?.attempts).toBe(2);
    expect(record?.facts.pages).toBe(3);
    expect(record?.outputs).toHaveLength(1);
  });

  it("fails JOB_INTERRUPTED when an interrupted job has no attempts left", async () => {
    const task = await mergeTask();
    const stub = await seed(
      storedRecord(task, { state: "PROGRESS", progress: 25, attempts: MAX_JOB_ATTEMPTS, running: true }),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const record = await stub.snapshot();
    expect(record?.state).toBe("FAILURE");
    expect(record?.error?.code).toBe("JOB_INTERRUPTED");
    // Its files stay until expiry, which deletes them.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await env.FILES.list({ prefix: `tasks/${task.id}/` })).objects).toEqual([]);
    expect(await stub.snapshot()).toBeNull();
  });

  it("treats an expired task as gone and deletes it at the next alarm", async () => {
    const task = await mergeTask();
    const stub = await seed(storedRecord(task, { expiresAt: Date.now() - 1 }));
    expect(await stub.snapshot()).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await env.FILES.list({ prefix: `tasks/${task.id}/` })).objects).toEqual([]);
  });
});
