import { DurableObject } from "cloudflare:workers";
import { AppError, DEFAULT_RETENTION_MINUTES, type ErrorCode } from "../contract/index.ts";
import { type ConverterClient, createConverterClient } from "./converter-client.ts";
import type { Env } from "./env.ts";
import { runJob } from "./job-runner.ts";
import { deleteTaskFiles } from "./task-files.ts";
import {
  isFinished,
  JOB_PROGRESS,
  type NewTask,
  splitSecrets,
  TASK_RECORD_KEY,
  TASK_SECRETS_KEY,
  type TaskRecord,
} from "./task-record.ts";

/** Interrupted runs (runner killed, or this object restarted mid-run) retried before JOB_INTERRUPTED. */
export const MAX_INTERRUPTED_RETRIES = 1;

/**
 * How a busy or unreachable converter is waited for: retry n waits `baseMs × 2^n`, at most `capMs`,
 * scaled by a random factor in [0.5, 1] so waiting tasks do not retry in step, until `deadlineMs`
 * after creation. Measured: a batch of 32 merges keeps the converter busy for 8–12 s, so the
 * deadline is minutes, not seconds. With a 10 s cap, 64 waiting merges left the converter idle
 * between retries (1.7 jobs/s against 5.8 at 32); a rejected attempt costs the converter only its
 * admission check, so the cap is short. A property of the object so tests can shorten it.
 */
export interface QueuePolicy {
  readonly baseMs: number;
  readonly capMs: number;
  readonly deadlineMs: number;
}
export const QUEUE_POLICY: QueuePolicy = { baseMs: 500, capMs: 2000, deadlineMs: 5 * 60_000 };

/** Failures that mean "the converter cannot take the job now", not "the job is bad". */
const QUEUE_CODES: ReadonlySet<ErrorCode> = new Set(["CONVERTER_BUSY", "CONVERTER_UNAVAILABLE"]);

/**
 * While a job runs, the alarm is re-armed this far ahead: if the process dies (e.g. `wrangler dev`
 * restarts), it fires, finds the stored run flag without a live run, and resumes the job. A live
 * run only pushes it further.
 */
const WATCHDOG_MS = 30_000;

/**
 * Progress is stored (waking the waiting status requests) at most this often; a value arriving
 * sooner is stored when the interval ends, unless the job has ended by then. Measured on a
 * 40-page PDF to JPG: one stored change per page made ~40 status round trips in ~1.5 s, Worker
 * work that competed with the converter's render threads for the same cores.
 */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * A progress value is stored only once it has waited this long with the job still running: a
 * report that the job's end follows at once (the Worker's own steps at its start, an engine's last
 * page just before its output) is never stored. Each stored value wakes the waiting status
 * requests, and each of them is answered and asked again (a request, its rate-limit count, a call
 * to this object); measured on one OCR page, those round trips fell at the job's start and end,
 * on the Worker's one thread, in the path of the upload and of the result (bench:ocr --trace).
 */
export const PROGRESS_SETTLE_MS = 100;

function retentionMs(env: Env): number {
  const minutes = Number(env.RETENTION_MINUTES);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_RETENTION_MINUTES) * 60_000;
}

export function taskStub(env: Env, taskId: string): DurableObjectStub<TaskObject> {
  return env.TASKS.get(env.TASKS.idFromName(taskId));
}

/**
 * One task: its state machine, retries, progress, expiry and cleanup. It coordinates; the job
 * itself runs in an edge engine or in the converter (job-runner.ts). The job starts as soon as the
 * task is created, with the alarm armed as its watchdog; alarms also run the retries after a
 * transient failure, and the last alarm deletes everything.
 */
export class TaskObject extends DurableObject<Env> {
  /** The converter jobs use; a property so a deployment variant (or a test) can point it elsewhere. */
  converter: ConverterClient;
  queuePolicy: QueuePolicy = QUEUE_POLICY;
  /** True while this instance runs the job (the stored flag alone cannot tell a live run from a lost one). */
  #running = false;
  /** Status requests waiting for the next change. */
  readonly #waiters = new Set<() => void>();
  /** When progress was last stored, and the highest value waiting for the interval to end. */
  #progressStoredAt = 0;
  #progressWaiting: { percent: number; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.converter = createConverterClient(env);
  }

  #load(): TaskRecord | undefined {
    return this.ctx.storage.kv.get<TaskRecord>(TASK_RECORD_KEY);
  }

  /** Stores the record with the next revision and wakes every waiting status request. */
  #save(record: TaskRecord): TaskRecord {
    const saved = { ...record, revision: (this.#load()?.revision ?? 0) + 1 };
    this.ctx.storage.kv.put(TASK_RECORD_KEY, saved);
    this.#wake();
    return saved;
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Stores a new task (PENDING) and starts its job at once, without waiting for an alarm to fire
   * (measured locally: 40–60 ms from the stored task to the job's start). The alarm is armed first
   * as the watchdog: if this instance is lost before the job ends, or the start itself fails, it
   * fires and runs the job again (alarm()).
   */
  async create(task: NewTask): Promise<void> {
    const now = Date.now();
    // Passwords are stored apart from the record and deleted when the job ends (#finish).
    const { task: kept, secrets } = splitSecrets(task);
    if (secrets !== null) this.ctx.storage.kv.put(TASK_SECRETS_KEY, secrets);
    const record = this.#save({
      ...kept,
      createdAt: now,
      expiresAt: now + retentionMs(this.env),
      state: "PENDING",
      progress: 0,
      revision: 0,
      attempts: 0,
      queuedRetries: 0,
      interruptions: 0,
      running: false,
      outputs: [],
      facts: {},
      error: null,
    });
    await this.ctx.storage.setAlarm(now + WATCHDOG_MS);
    // Runs after this call has answered; waitUntil keeps the object alive until the job ends.
    this.ctx.waitUntil(this.#start(record));
  }

  /** Runs the job of a new task; a failure to start is left to the watchdog alarm. */
  async #start(record: TaskRecord): Promise<void> {
    try {
      await this.#run(record);
    } catch (error) {
      const detail = error instanceof Error ? { error: error.name, message: error.message } : {};
      console.error(JSON.stringify({ level: "warn", task_id: record.id, event: "start_failed", ...detail }));
    }
  }

  /** The task, or null when it does not exist or has expired. */
  async snapshot(): Promise<TaskRecord | null> {
    const record = this.#load();
    return record !== undefined && Date.now() < record.expiresAt ? record : null;
  }

  /**
   * The task once its revision differs from `since`, or after `waitMs` unchanged. Without `since`
   * (or for a finished task, which no longer changes) it answers at once.
   */
  async watch(since: number | undefined, waitMs: number): Promise<TaskRecord | null> {
    const record = await this.snapshot();
    if (record === null || since === undefined || record.revision !== since || isFinished(record.state)) {
      return record;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      this.#waiters.add(done);
    });
    return this.snapshot();
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
    if (record.running) {
      // The stored run flag without a live run: this object restarted while the job ran.
      const interrupted = { ...record, running: false, interruptions: record.interruptions + 1 };
      if (interrupted.interruptions > MAX_INTERRUPTED_RETRIES) {
        const error = new AppError("JOB_INTERRUPTED", "The job was interrupted too often");
        await this.#finish({ ...interrupted, state: "FAILURE", error: error.toBody() });
        return;
      }
      await this.#run(interrupted);
      return;
    }
    // The first run or a retry.
    await this.#run(record);
  }

  async #run(record: TaskRecord): Promise<void> {
    this.#running = true;
    try {
      const started = this.#save({
        ...record,
        state: "STARTED",
        progress: Math.max(record.progress, JOB_PROGRESS.started),
        attempts: record.attempts + 1,
        running: true,
        error: null,
      });
      await this.ctx.storage.setAlarm(Date.now() + WATCHDOG_MS);
      try {
        const secrets = this.ctx.storage.kv.get<Record<string, unknown>>(TASK_SECRETS_KEY);
        const result = await runJob(
          secrets === undefined ? started : { ...started, options: withSecrets(started.options, secrets) },
          { files: this.env.FILES, converter: this.converter },
          (percent) => this.#progress(percent),
        ).finally(() => this.#dropWaitingProgress());
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
      }
    } finally {
      // Also when the start itself failed, so the watchdog alarm can run the job again.
      this.#running = false;
    }
  }

  #progress(percent: number): void {
    if (this.#progressWaiting !== undefined) {
      this.#progressWaiting.percent = Math.max(this.#progressWaiting.percent, percent);
      return;
    }
    const wait = Math.max(PROGRESS_SETTLE_MS, this.#progressStoredAt + PROGRESS_INTERVAL_MS - Date.now());
    const waiting = {
      percent,
      timer: setTimeout(() => {
        this.#progressWaiting = undefined;
        this.#storeProgress(waiting.percent);
      }, wait),
    };
    this.#progressWaiting = waiting;
  }

  /** The job has ended: a value still waiting is never stored. */
  #dropWaitingProgress(): void {
    clearTimeout(this.#progressWaiting?.timer);
    this.#progressWaiting = undefined;
  }

  #storeProgress(percent: number): void {
    this.#progressStoredAt = Date.now();
    const current = this.#load();
    if (current === undefined || !current.running || percent <= current.progress) return;
    this.#save({ ...current, state: "PROGRESS", progress: percent });
  }

  async #failOrRetry(error: unknown, taskId: string): Promise<void> {
    const appError = error instanceof AppError ? error : internalError(error, taskId);
    // An engine's own text (decoder, encoder) never reaches the API: it is logged with the task id.
    if (appError.detail !== undefined) {
      console.error(
        JSON.stringify({ level: "warn", task_id: taskId, code: appError.code, detail: appError.detail }),
      );
    }
    const current = this.#load();
    if (current === undefined) {
      await deleteTaskFiles(this.env.FILES, taskId);
      return;
    }
    const stopped = { ...current, running: false };
    if (QUEUE_CODES.has(appError.code)) {
      const policy = this.queuePolicy;
      const backoff = Math.min(policy.baseMs * 2 ** current.queuedRetries, policy.capMs);
      const delay = Math.round(backoff * (0.5 + Math.random() / 2));
      if (Date.now() + delay <= current.createdAt + policy.deadlineMs) {
        this.#save({ ...stopped, state: "QUEUED", queuedRetries: current.queuedRetries + 1 });
        await this.ctx.storage.setAlarm(Date.now() + delay);
        return;
      }
    } else if (appError.code === "JOB_INTERRUPTED" && current.interruptions < MAX_INTERRUPTED_RETRIES) {
      this.#save({ ...stopped, state: "QUEUED", interruptions: current.interruptions + 1 });
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    await this.#finish({ ...stopped, state: "FAILURE", error: withFileName(appError, current) });
  }

  /**
   * Stores a finished task and schedules its expiry. Its secrets and uploads are deleted first, so a client
   * that sees the task finished never finds them still stored: only the results are kept until
   * the end of retention.
   */
  async #finish(record: TaskRecord): Promise<void> {
    this.ctx.storage.kv.delete(TASK_SECRETS_KEY);
    const keys = [...record.inputs, ...(record.extras ?? [])].map((input) => input.key);
    try {
      if (keys.length > 0) await this.env.FILES.delete(keys);
    } catch (error) {
      // Expiry (and the bucket's lifecycle rule) delete them later.
      console.error(JSON.stringify({ level: "error", task_id: record.id, message: String(error) }));
    }
    // Deleted meanwhile: its purge has removed everything already.
    if (this.#load() === undefined) return;
    this.#save(record);
    await this.ctx.storage.setAlarm(record.expiresAt);
  }

  async #purge(record: TaskRecord | undefined): Promise<void> {
    if (record !== undefined) await deleteTaskFiles(this.env.FILES, record.id);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#wake();
  }
}

/** A per-file error (context.file_index) also names the file, so the client can show which one. */
function withFileName(error: AppError, record: TaskRecord): TaskRecord["error"] {
  const body = error.toBody();
  const index = body.context?.file_index;
  const input = typeof index === "number" ? record.inputs[index] : undefined;
  if (input === undefined || body.context === undefined) return body;
  return { ...body, context: { ...body.context, file_name: input.name } };
}

/** Unknown failures are logged with the task id (never file names) and reported as INTERNAL. */
function internalError(error: unknown, taskId: string): AppError {
  const detail =
    error instanceof Error ? { error: error.name, message: error.message, stack: error.stack } : {};
  console.error(JSON.stringify({ level: "error", task_id: taskId, ...detail }));
  return new AppError("INTERNAL", "The job failed unexpectedly");
}

/** The stored options with the task's secrets put back, for the job alone. */
function withSecrets(
  options: TaskRecord["options"],
  secrets: Record<string, unknown>,
): TaskRecord["options"] {
  return { ...options, ...secrets } as TaskRecord["options"];
}
