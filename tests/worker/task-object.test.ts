import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AppError, CONVERTER_STREAM_TYPE, encodeFrame, type TaskState } from "../../contract/index.ts";
import {
  type ConverterClient,
  converterClient,
  createConverterClient,
} from "../../worker/converter-client.ts";
import { inputKey } from "../../worker/task-files.ts";
import { newTaskId } from "../../worker/task-id.ts";
import {
  MAX_INTERRUPTED_RETRIES,
  PROGRESS_INTERVAL_MS,
  PROGRESS_SETTLE_MS,
  type TaskObject,
  taskStub,
} from "../../worker/task-object.ts";
import { JOB_PROGRESS, type NewTask, TASK_RECORD_KEY, type TaskRecord } from "../../worker/task-record.ts";
import { makePdf } from "./fixtures.ts";

/** Stores two PDFs (1 + 2 pages) as a merge task's uploads. */
async function mergeTask(): Promise<NewTask> {
  const id = await newTaskId(env.CSRF_SECRET);
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
    revision: 1,
    attempts: 0,
    queuedRetries: 0,
    interruptions: 0,
    running: false,
    outputs: [],
    facts: {},
    error: null,
    ...patch,
  };
}

/** Follows the task through `watch` until it ends; `states` collects every state seen, in order. */
async function waitForEnd(
  stub: DurableObjectStub<TaskObject>,
  states: TaskState[] = [],
  timeoutMs = 20_000,
): Promise<TaskRecord> {
  const deadline = Date.now() + timeoutMs;
  let since: number | undefined;
  for (;;) {
    const record = await stub.watch(since, 5000);
    if (record !== null && states.at(-1) !== record.state) states.push(record.state);
    if (record !== null && (record.state === "SUCCESS" || record.state === "FAILURE")) return record;
    if (Date.now() > deadline) throw new Error(`still ${record?.state}`);
    since = record?.revision;
  }
}

/** The real converter, failing the first calls with the given errors. */
function failingFirst(errors: AppError[]): ConverterClient & { calls: number } {
  const real = createConverterClient(env);
  const client = {
    calls: 0,
    runJob: (...args: Parameters<ConverterClient["runJob"]>) => {
      const error = errors[client.calls++];
      return error === undefined ? real.runJob(...args) : Promise.reject(error);
    },
    inspectPdf: (...args: Parameters<ConverterClient["inspectPdf"]>) => real.inspectPdf(...args),
    health: (timeoutMs: number) => real.health(timeoutMs),
  };
  return client;
}

/** The real converter, except that its first job never answers (a run that is then lost). */
function hangingFirst(): ConverterClient & { calls: number } {
  const real = createConverterClient(env);
  const client = {
    calls: 0,
    runJob: (...args: Parameters<ConverterClient["runJob"]>) =>
      client.calls++ === 0 ? new Promise<never>(() => {}) : real.runJob(...args),
    inspectPdf: (...args: Parameters<ConverterClient["inspectPdf"]>) => real.inspectPdf(...args),
    health: (timeoutMs: number) => real.health(timeoutMs),
  };
  return client;
}

/** Creates the task in an object using `converter` and a short queue policy. */
async function createWith(task: NewTask, converter: ConverterClient, deadlineMs = 10_000) {
  const stub = taskStub(env, task.id);
  await runInDurableObject(stub, async (instance: TaskObject) => {
    instance.converter = converter;
    instance.queuePolicy = { baseMs: 20, capMs: 200, deadlineMs };
    await instance.create(task);
  });
  return stub;
}

async function keysOf(taskId: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `tasks/${taskId}/` })).objects.map((o) => o.key);
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
  it("keeps retrying an unreachable converter as QUEUED until the deadline, then fails CONVERTER_UNAVAILABLE", async () => {
    const task = await mergeTask();
    // Nothing listens on port 1: every connection is refused.
    const unreachable = createConverterClient({
      CONVERTER_URL: "http://127.0.0.1:1",
      CONVERTER: env.CONVERTER,
    });
    const started = Date.now();
    const states: TaskState[] = [];
    const record = await waitForEnd(await createWith(task, unreachable, 1500), states);
    expect(record.state).toBe("FAILURE");
    expect(record.error?.code).toBe("CONVERTER_UNAVAILABLE");
    expect(states).toContain("QUEUED");
    // Retried well past three attempts, and given up only near the deadline.
    expect(record.attempts).toBeGreaterThan(5);
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(record.running).toBe(false);
    // The uploads are gone as soon as the task ends.
    expect(await keysOf(task.id)).toEqual([]);
  });

  it("waits out a busy converter (more refusals than the old three attempts) and succeeds", async () => {
    const task = await mergeTask();
    const busy = () => new AppError("CONVERTER_BUSY", "busy");
    const converter = failingFirst([busy(), busy(), busy(), busy(), busy()]);
    const states: TaskState[] = [];
    const record = await waitForEnd(await createWith(task, converter), states);
    expect(record.state).toBe("SUCCESS");
    expect(record.facts.pages).toBe(3);
    expect(converter.calls).toBe(6);
    expect(states).toContain("QUEUED");
    expect(states.indexOf("QUEUED")).toBeLessThan(states.indexOf("SUCCESS"));
    // Inputs deleted at the end; the result stays until expiry.
    expect(await keysOf(task.id)).toEqual([record.outputs[0]?.key]);
  });

  it("retries a killed runner (JOB_INTERRUPTED) once", async () => {
    const once = await mergeTask();
    const interrupted = () => new AppError("JOB_INTERRUPTED", "runner killed");
    const recovered = await waitForEnd(await createWith(once, failingFirst([interrupted()])));
    expect(recovered.state).toBe("SUCCESS");

    const twice = await mergeTask();
    const failed = await waitForEnd(await createWith(twice, failingFirst([interrupted(), interrupted()])));
    expect(failed.state).toBe("FAILURE");
    expect(failed.error?.code).toBe("JOB_INTERRUPTED");
    expect(await keysOf(twice.id)).toEqual([]);
  });

  it("puts a task back to QUEUED when the converter falls silent mid-job, and succeeds once it answers again", async () => {
    const task = await mergeTask();
    const url = env.CONVERTER_URL ?? "";
    let calls = 0;
    // The first call gets a 200 and one progress frame, then nothing (a converter stopped by SIGSTOP).
    const stoppedOnce = converterClient(
      (path, init) => {
        if (calls++ > 0) return fetch(new URL(path, url), init);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encodeFrame({ type: "progress", percent: 10 }));
            init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
          },
        });
        return Promise.resolve(new Response(body, { headers: { "Content-Type": CONVERTER_STREAM_TYPE } }));
      },
      env.CONVERTER_SECRET ?? "",
      { jobMs: 60_000, silentMs: 500, inspectMs: 60_000 },
    );
    const states: TaskState[] = [];
    const started = Date.now();
    const record = await waitForEnd(await createWith(task, stoppedOnce), states);
    expect(record.state).toBe("SUCCESS");
    expect(record.facts.pages).toBe(3);
    expect(states.indexOf("QUEUED")).toBeGreaterThan(0);
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("names the file of a per-file error", async () => {
    const task = await mergeTask();
    const damaged = new AppError("PDF_DAMAGED", "damaged", { file_index: 1 });
    const record = await waitForEnd(await createWith(task, failingFirst([damaged])));
    expect(record.error).toEqual({
      code: "PDF_DAMAGED",
      message: "damaged",
      context: { file_index: 1, file_name: "in1.pdf" },
    });
  });

  it("answers watch at once without since, and at the next change or the end of the wait with it", async () => {
    const task = await mergeTask();
    const stub = await seed(storedRecord(task, { state: "PENDING", revision: 7 }));
    expect((await stub.watch(undefined, 5000))?.revision).toBe(7);
    expect((await stub.watch(3, 5000))?.revision).toBe(7);

    let started = Date.now();
    const unchanged = await stub.watch(7, 300);
    expect(unchanged?.revision).toBe(7);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);

    started = Date.now();
    const waiting = stub.watch(7, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The job runs from the alarm: its first stored change wakes the waiting request.
    await runDurableObjectAlarm(stub);
    const changed = await waiting;
    expect(changed?.revision).toBeGreaterThan(7);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("starts the job when the task is created, with the alarm armed only as its watchdog", async () => {
    const task = await mergeTask();
    const stub = taskStub(env, task.id);
    const created = Date.now();
    const afterCreate = await runInDurableObject(stub, async (instance: TaskObject, state) => {
      await instance.create(task);
      return { record: await instance.snapshot(), alarm: await state.storage.getAlarm() };
    });
    // Already started when create() answers: no alarm has run (the only one is 30 s away).
    expect(afterCreate.record?.state).toBe("STARTED");
    expect(afterCreate.record?.attempts).toBe(1);
    expect(afterCreate.alarm).toBeGreaterThanOrEqual(created + 25_000);
    const record = await waitForEnd(stub);
    expect(record.state).toBe("SUCCESS");
    expect(record.attempts).toBe(1);
    expect(record.facts.pages).toBe(3);
    // Once finished, the alarm is the task's expiry.
    const alarm = await runInDurableObject(stub, (_instance: TaskObject, state) => state.storage.getAlarm());
    expect(alarm).toBe(record.expiresAt);
  });

  it("leaves a live run alone at the watchdog alarm, and reruns a run that was lost", async () => {
    const task = await mergeTask();
    const converter = hangingFirst();
    const stub = await createWith(task, converter);
    // The alarm during a live run only pushes the watchdog further: no second run.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(converter.calls).toBe(1);
    const live = await stub.snapshot();
    expect(live?.running).toBe(true);
    expect(live?.attempts).toBe(1);
    // The instance running the job goes away (a restart): its stored run flag remains.
    await abortAllDurableObjects();
    const restarted = taskStub(env, task.id);
    expect((await restarted.snapshot())?.running).toBe(true);
    expect(await runDurableObjectAlarm(restarted)).toBe(true);
    const record = await waitForEnd(restarted);
    expect(record.state).toBe("SUCCESS");
    expect(record.attempts).toBe(2);
    expect(record.interruptions).toBe(1);
    expect(record.facts.pages).toBe(3);
    expect(converter.calls).toBe(1);
  });

  it("stores progress at most once an interval, and the last value when the interval ends", async () => {
    const task = await mergeTask();
    const real = createConverterClient(env);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const converter: ConverterClient = {
      runJob: async (tool, options, inputs, handlers) => {
        // A hundred engine reports within about half a second, then a pause before the real job.
        for (let percent = 1; percent <= 100; percent++) {
          handlers.onProgress(percent);
          await pause(5);
        }
        await pause(PROGRESS_INTERVAL_MS * 3);
        return real.runJob(tool, options, inputs, { ...handlers, onProgress: () => {} });
      },
      inspectPdf: (pdf) => real.inspectPdf(pdf),
      health: (timeoutMs) => real.health(timeoutMs),
    };
    const stub = await createWith(task, converter);
    const seen: number[] = [];
    let record: TaskRecord | null = null;
    for (let since: number | undefined; record?.state !== "SUCCESS"; since = record?.revision) {
      record = await stub.watch(since, 5000);
      if (record !== null) seen.push(record.progress);
    }
    // Engine 100 % is the end of the converting span, stored although later reports came sooner.
    expect(seen).toContain(JOB_PROGRESS.converted);
    // Every report stored would be over a hundred revisions.
    expect(record.revision).toBeLessThan(20);
    expect(record.facts.pages).toBe(3);
  });

  it("never stores progress that the job's end follows within the settle time", async () => {
    const task = await mergeTask();
    const output = makePdf(1);
    const real = createConverterClient(env);
    // The engine reports twice and its output follows at once (an OCR page's last report, then the PDF).
    const converter: ConverterClient = {
      runJob: async (_tool, _options, _inputs, handlers) => {
        handlers.onProgress(40);
        handlers.onProgress(97);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(output);
            controller.close();
          },
        });
        await handlers.onFile({ index: 0, kind: "pdf", size: output.byteLength }, body);
        return { facts: { pages: 1 } };
      },
      inspectPdf: (pdf) => real.inspectPdf(pdf),
      health: (timeoutMs) => real.health(timeoutMs),
    };
    const stub = await createWith(task, converter);
    const states: TaskState[] = [];
    const record = await waitForEnd(stub, states);
    expect(record.state).toBe("SUCCESS");
    // PENDING, STARTED, SUCCESS: the Worker's own steps and the engine's reports were not stored
    // (each stored value wakes the status requests, which are answered and asked again).
    expect(record.revision).toBe(3);
    expect(states).not.toContain("PROGRESS");
    expect(record.outputs[0]?.size).toBe(output.byteLength);
    expect(PROGRESS_SETTLE_MS).toBeLessThan(PROGRESS_INTERVAL_MS);
  });

  it("stores a progress report once it has waited the settle time with the job still running", async () => {
    const task = await mergeTask();
    const real = createConverterClient(env);
    let stored: TaskRecord | null = null;
    const converter: ConverterClient = {
      runJob: async (tool, options, inputs, handlers) => {
        handlers.onProgress(50);
        await new Promise((resolve) => setTimeout(resolve, PROGRESS_SETTLE_MS * 4));
        stored = await taskStub(env, task.id).snapshot();
        return real.runJob(tool, options, inputs, { ...handlers, onProgress: () => {} });
      },
      inspectPdf: (pdf) => real.inspectPdf(pdf),
      health: (timeoutMs) => real.health(timeoutMs),
    };
    const stub = await createWith(task, converter);
    expect((await waitForEnd(stub)).state).toBe("SUCCESS");
    expect((stored as TaskRecord | null)?.state).toBe("PROGRESS");
    expect((stored as TaskRecord | null)?.progress).toBeGreaterThan(JOB_PROGRESS.converting);
  });

  it("resumes a job found interrupted when attempts remain", async () => {
    const task = await mergeTask();
    const stub = await seed(
      storedRecord(task, { state: "PROGRESS", progress: 25, attempts: 1, running: true, interruptions: 0 }),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const record = await stub.snapshot();
    expect(record?.state).toBe("SUCCESS");
    expect(record?.attempts).toBe(2);
    expect(record?.interruptions).toBe(1);
    expect(record?.facts.pages).toBe(3);
    expect(record?.outputs).toHaveLength(1);
  });

  it("fails JOB_INTERRUPTED when an interrupted job has no retries left", async () => {
    const task = await mergeTask();
    const stub = await seed(
      storedRecord(task, {
        state: "PROGRESS",
        progress: 25,
        attempts: 2,
        interruptions: MAX_INTERRUPTED_RETRIES,
        running: true,
      }),
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const record = await stub.snapshot();
    expect(record?.state).toBe("FAILURE");
    expect(record?.error?.code).toBe("JOB_INTERRUPTED");
    // Its uploads are deleted at once; expiry deletes the rest and the state.
    expect(await keysOf(task.id)).toEqual([]);
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
