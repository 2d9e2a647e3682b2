import { DurableObject } from "cloudflare:workers";
import { AppError, DEFAULT_RETENTION_MINUTES, isTransient } from "../contract/index.ts";
import { type ConverterClient, createConverterClient } from "./converter-client.ts";
import type { Env } from "./env.ts";
import { runJob } from "./job-runner.ts";
import { deleteTaskFiles } from "./task-files.ts";
import { isFinished, JOB_PROGRESS, type NewTask, TASK_RECORD_KEY, type TaskRecord } from "./task-record.ts";

/** Runs per task, first one included; also bounds resumption after an interruption. */
export const MAX_JOB_ATTEMPTS = 3;
/** Wait before retry n (n = 1, 2, …): 1 s, 2 s, 4 s… */
const RETRY_BASE_MS = 1000;
/**
 * While a job runs, the alarm is re-armed this far ahead: if the process dies (e.g. `wrangler dev`
 * restarts), it fires, finds the stored run flag without a live run, and resumes the job. A live
 * run only pushes it further.
 */
const WATCHDOG_MS = 30_000;

function retentionMs(env: Env): number {
  const minutes = Number(env.RETENTION_MINUTES);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_RETENTION_MINUTES) * 60_000;
}

export function taskStub(env: Env, taskId: string): DurableObjectStub<TaskObject> {
  return env.TASKS.get(env.TASKS.idFromName(taskId));
}

/**
 * One task: its state machine, retries, progress, expiry and cleanup. It coordinates; the job
 * itself runs in an edge engine or in the converter (job-runner.ts). All work happens in the alarm:
 * at once after creation, again after a transient failure, and at expiry to delete everything.
 */
export class TaskObject extends DurableObject<Env> {
  /** The converter jobs use; a property so a deployment variant (or a test) can point it elsewhere. */
  converter: ConverterClient;
  /** True while this instance runs the job (the stored flag alone cannot tell a live run from a lost one). */
  #running = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.converter = createConverterClient(env);
  }

  #load(): TaskRecord | undefined {
    return this.ctx.storage.kv.get<TaskRecord>(TASK_RECORD_KEY);
  }

  #save(record: TaskRecord): void {
    this.ctx.storage.kv.put(TASK_RECORD_KEY, record);
  }

  /** Stores a new task (PENDING) and schedules its job at once. */
  async create(task: NewTask): Promise<void> {
    const now = Date.now();
    this.#save({
      ...task,
      createdAt: now,
      expiresAt: now + retentionMs(this.env),
      state: "PENDING",
      progress: 0,
      attempts: 0,
      running: false,
      outputs: [],
      facts: {},
      error: null,
    });
    await this.ctx.storage.setAlarm(now);
  }

  /** The task, or null when it does not exist or has expired. */
  async snapshot(): Promise<TaskRecord | null> {
    const record = this.#load();
    return record !== undefined && Date.now() < record.expiresAt ? record : null;
  }

  /** Deletes the task's files and state now; false when there was no task. */
  async remove(): Promise<boolean> {
    const record = this.#load();
    await this.#purge(record);
    return record !== undefined;
  }

  override async alarm(): Promise<void> {
    const record = this.#load();
    if (record === undefined || Date.now() >= record.expiresAt || isFinished(record.state)) {
      // The only alarm of a finished task is its expiry.
      await this.#purge(record);
      return;
    }
    if (this.#running) {
      await this.ctx.storage.setAlarm(Date.now() + WATCHDOG_MS);
      return;
    }
    if (record.running && record.attempts >= MAX_JOB_ATTEMPTS) {
      await this.#finish({
        ...record,
        state: "FAILURE",
        running: false,
        error: new AppError("JOB_INTERRUPTED", "The job was interrupted too often").toBody(),
      });
      return;
    }
    // Either the first run, a retry, or the resumption of an interrupted run.
    await this.#run(record);
  }

  async #run(record: TaskRecord): Promise<void> {
    this.#running = true;
    const started: TaskRecord = {
      ...record,
      state: "STARTED",
      progress: JOB_PROGRESS.started,
      attempts: record.attempts + 1,
      running: true,
      error: null,
    };
    this.#save(started);
    await this.ctx.storage.setAlarm(Date.now() + WATCHDOG_MS);
    try {
      const result = await runJob(started, { files: this.env.FILES, converter: this.converter }, (percent) =>
        this.#progress(percent),
      );
      const current = this.#load();
      // Deleted while running: drop what the job just stored.
      if (current === undefined) await deleteTaskFiles(this.env.FILES, record.id);
      else {
        await this.#finish({
          ...current,
          state: "SUCCESS",
          progress: JOB_PROGRESS.done,
          running: false,
          outputs: result.outputs,
          facts: result.facts,
        });
      }
    } catch (error) {
      await this.#failOrRetry(error, record.id);
    } finally {
      this.#running = false;
    }
  }

  #progress(percent: number): void {
    const current = this.#load();
    if (current === undefined || !current.running || percent <= current.progress) return;
    this.#save({ ...current, state: "PROGRESS", progress: percent });
  }

  async #failOrRetry(error: unknown, taskId: string): Promise<void> {
    const appError = error instanceof AppError ? error : internalError(error, taskId);
    const current = this.#load();
    if (current === undefined) {
      await deleteTaskFiles(this.env.FILES, taskId);
      return;
    }
    if (isTransient(appError.code) && current.attempts < MAX_JOB_ATTEMPTS) {
      this.#save({ ...current, running: false });
      await this.ctx.storage.setAlarm(Date.now() + RETRY_BASE_MS * 2 ** (current.attempts - 1));
      return;
    }
    await this.#finish({ ...current, state: "FAILURE", running: false, error: appError.toBody() });
  }

  /** Stores a finished task and schedules its expiry. */
  async #finish(record: TaskRecord): Promise<void> {
    this.#save(record);
    await this.ctx.storage.setAlarm(record.expiresAt);
  }

  async #purge(record: TaskRecord | undefined): Promise<void> {
    if (record !== undefined) await deleteTaskFiles(this.env.FILES, record.id);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }
}

/** Unknown failures are logged with the task id (never file names) and reported as INTERNAL. */
function internalError(error: unknown, taskId: string): AppError {
  const detail =
    error instanceof Error ? { error: error.name, message: error.message, stack: error.stack } : {};
  console.error(JSON.stringify({ level: "error", task_id: taskId, ...detail }));
  return new AppError("INTERNAL", "The job failed unexpectedly");
}
