/**
 * A fixed set of pre-started job runners (runner.ts), reused between jobs, with admission
 * control decided from the request's declared size before its body is read: at most
 * `concurrency` jobs run; waiting jobs (uploading or queued) are bounded by `queueLimit` and by
 * `queueBytes`, the inputs they may hold on disk (tmp may be RAM-backed). Beyond that the caller
 * answers CONVERTER_BUSY. A runner killed for a limit, crashed, or left holding much memory after
 * a job (WASM memory never shrinks) is replaced by a fresh one, as is one found wedged during a
 * job (runner.ts heartbeat) or stopped by a signal when a job would take it.
 */
import type { RunnerCounts } from "../../contract/index.ts";
import type { RunnerTask } from "./job-protocol.ts";
import { type JobLimits, type ProgressListener, Runner, type TaskOutcome } from "./runner.ts";

export interface PoolLimits extends JobLimits {
  readonly concurrency: number;
  readonly queueLimit: number;
  /** Declared bytes of the jobs admitted and not yet running. */
  readonly queueBytes: number;
}

/** A runner keeping more than this share of the memory cap after a job is replaced. */
const RECYCLE_SHARE = 0.5;
/** Pause before starting a runner again after one failed to start. */
const RESPAWN_DELAY_MS = 1000;

/**
 * A place in the pool, held from admission until the caller releases it (after the job's response
 * is written, so a graceful stop waits for it); `release` is idempotent.
 */
export interface Admission {
  /** Runs the task on a runner; when `signal` has aborted by the time one is free, it does not run. */
  run(task: RunnerTask, onProgress?: ProgressListener, signal?: AbortSignal): Promise<TaskOutcome>;
  release(): void;
}

export class RunnerPool {
  readonly limits: PoolLimits;
  readonly #log: (line: string) => void;
  readonly #runners = new Set<Runner>();
  readonly #idle: Runner[] = [];
  readonly #waiting: ((runner: Runner | null) => void)[] = [];
  #admitted = 0;
  #waitingBytes = 0;
  #running = 0;
  #closed = false;
  #replaced = 0;
  #wedged = 0;

  constructor(limits: PoolLimits, log: (line: string) => void) {
    this.limits = limits;
    this.#log = log;
  }

  /** Starts every runner and waits until they are ready; fails when one cannot start. */
  async start(): Promise<void> {
    await Promise.all(Array.from({ length: this.limits.concurrency }, () => this.#spawn(false)));
  }

  get running(): number {
    return this.#running;
  }

  /** Process ids of the runners (for tests and diagnostics). */
  get pids(): number[] {
    return [...this.#runners].flatMap((runner) => (runner.pid === undefined ? [] : [runner.pid]));
  }

  counts(): RunnerCounts {
    const idle = this.#idle.length;
    return {
      busy: this.#running,
      idle,
      starting: Math.max(0, this.#runners.size - idle - this.#running),
      replaced: this.#replaced,
      wedged: this.#wedged,
    };
  }

  /** Jobs admitted and not finished (running, queued or still uploading). */
  get admitted(): number {
    return this.#admitted;
  }

  /** Declared bytes of the admitted jobs not running yet. */
  get waitingBytes(): number {
    return this.#waitingBytes;
  }

  /**
   * A place for one job of `bytes` declared input, or null when the pool is full: by count, or by
   * the waiting bytes (a job alone is always admitted when no other waits).
   */
  admit(bytes: number): Admission | null {
    if (this.#closed || this.#admitted >= this.limits.concurrency + this.limits.queueLimit) return null;
    if (this.#waitingBytes > 0 && this.#waitingBytes + bytes > this.limits.queueBytes) return null;
    this.#admitted++;
    this.#waitingBytes += bytes;
    let waiting = true;
    const started = () => {
      if (!waiting) return;
      waiting = false;
      this.#waitingBytes -= bytes;
    };
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      started();
      this.#admitted--;
    };
    return {
      run: (task, onProgress, signal) => this.#run(task, started, onProgress, signal),
      release,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of this.#waiting.splice(0)) waiter(null);
    for (const runner of this.#runners) runner.kill();
    this.#runners.clear();
    this.#idle.length = 0;
  }

  async #run(
    task: RunnerTask,
    started: () => void,
    onProgress?: ProgressListener,
    signal?: AbortSignal,
  ): Promise<TaskOutcome> {
    const runner = await this.#acquire();
    started();
    if (runner === null) {
      const error = { code: "CONVERTER_UNAVAILABLE", message: "The converter is shutting down." } as const;
      return { result: { ok: false, error }, engineMs: 0, totalMs: 0 };
    }
    if (signal?.aborted) {
      // The caller went away while the job waited (e.g. gave up on a stopped converter): no one
      // would read the result.
      this.#giveBack(runner);
      const error = { code: "JOB_INTERRUPTED", message: "The request was abandoned." } as const;
      return { result: { ok: false, error }, engineMs: 0, totalMs: 0 };
    }
    this.#running++;
    try {
      return await runner.execute(task, onProgress);
    } finally {
      this.#running--;
      this.#afterJob(runner);
    }
  }

  #acquire(): Promise<Runner | null> {
    if (this.#closed) return Promise.resolve(null);
    for (let runner = this.#idle.pop(); runner !== undefined; runner = this.#idle.pop()) {
      if (runner.alive && !runner.stopped) return Promise.resolve(runner);
      // Died while idle (e.g. killed by the system), or stopped by a signal: replace it.
      if (runner.alive) {
        this.#log(`runner ${runner.pid} replaced: stopped by a signal while idle`);
        this.#wedged++;
      }
      this.#replace(runner);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #afterJob(runner: Runner): void {
    const residentMb = runner.alive ? runner.residentMb() : 0;
    if (runner.alive && residentMb <= this.limits.memoryMb * RECYCLE_SHARE) {
      this.#giveBack(runner);
      return;
    }
    if (runner.alive) this.#log(`runner replaced: ${Math.round(residentMb)} MB resident after its job`);
    if (runner.wedged) {
      this.#log(`runner ${runner.pid} replaced: no answer and no CPU use for ${this.limits.wedgedMs} ms`);
      this.#wedged++;
    }
    this.#replace(runner);
  }

  #replace(runner: Runner): void {
    runner.kill();
    this.#runners.delete(runner);
    this.#replaced++;
    void this.#spawn(true);
  }

  #giveBack(runner: Runner, options: { readonly fresh?: boolean } = {}): void {
    if (this.#closed) {
      runner.kill();
      return;
    }
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter(runner);
    // Jobs take the idle runner put back last; a fresh one goes under the others, which have their
    // render threads running and their code compiled (a fresh runner's first job took 2-3x as long).
    else if (options.fresh) this.#idle.unshift(runner);
    else this.#idle.push(runner);
  }

  /**
   * Starts one runner and hands it out when ready. A runner that fails to start is retried after a
   * pause when `retry` (replacements), and is an error otherwise (service start-up).
   */
  async #spawn(retry: boolean): Promise<void> {
    while (!this.#closed) {
      const runner = new Runner(this.limits, this.#log);
      this.#runners.add(runner);
      try {
        await runner.ready;
        this.#giveBack(runner, { fresh: true });
        return;
      } catch (error) {
        runner.kill();
        this.#runners.delete(runner);
        if (!retry) throw error;
        this.#log(`job runner failed to start: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, RESPAWN_DELAY_MS));
      }
    }
  }
}
