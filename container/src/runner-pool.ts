/**
 * A fixed set of pre-started job runners (runner.ts), reused between jobs, with admission
 * control: at most `concurrency` jobs run, at most `queueLimit` more wait (uploading or queued);
 * beyond that the caller answers CONVERTER_BUSY. A runner killed for a limit, crashed, or left
 * holding much memory after a job (WASM memory never shrinks) is replaced by a fresh one.
 */
import type { RunnerTask } from "./job-protocol.ts";
import { type JobLimits, Runner, type TaskOutcome } from "./runner.ts";

export interface PoolLimits extends JobLimits {
  readonly concurrency: number;
  readonly queueLimit: number;
}

/** A runner keeping more than this share of the memory cap after a job is replaced. */
const RECYCLE_SHARE = 0.5;
/** Pause before starting a runner again after one failed to start. */
const RESPAWN_DELAY_MS = 1000;

/** A place in the pool, held from admission until the job ends; `release` is idempotent. */
export interface Admission {
  run(task: RunnerTask): Promise<TaskOutcome>;
  release(): void;
}

export class RunnerPool {
  readonly limits: PoolLimits;
  readonly #log: (line: string) => void;
  readonly #runners = new Set<Runner>();
  readonly #idle: Runner[] = [];
  readonly #waiting: ((runner: Runner | null) => void)[] = [];
  #admitted = 0;
  #running = 0;
  #closed = false;

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

  /** Jobs admitted and not finished (running, queued or still uploading). */
  get admitted(): number {
    return this.#admitted;
  }

  /** A place for one job, or null when running and waiting jobs already fill the pool. */
  admit(): Admission | null {
    if (this.#closed || this.#admitted >= this.limits.concurrency + this.limits.queueLimit) return null;
    this.#admitted++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#admitted--;
    };
    return {
      run: async (task) => {
        try {
          return await this.#run(task);
        } finally {
          release();
        }
      },
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

  async #run(task: RunnerTask): Promise<TaskOutcome> {
    const runner = await this.#acquire();
    if (runner === null) {
      const error = { code: "CONVERTER_UNAVAILABLE", message: "The converter is shutting down." } as const;
      return { result: { ok: false, error }, engineMs: 0, totalMs: 0 };
    }
    this.#running++;
    try {
      return await runner.execute(task);
    } finally {
      this.#running--;
      this.#afterJob(runner);
    }
  }

  #acquire(): Promise<Runner | null> {
    if (this.#closed) return Promise.resolve(null);
    for (let runner = this.#idle.pop(); runner !== undefined; runner = this.#idle.pop()) {
      if (runner.alive) return Promise.resolve(runner);
      // Died while idle (e.g. killed by the system): replace it.
      this.#runners.delete(runner);
      void this.#spawn(true);
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #afterJob(runner: Runner): void {
    if (runner.alive && runner.residentMb() <= this.limits.memoryMb * RECYCLE_SHARE) {
      this.#giveBack(runner);
      return;
    }
    runner.kill();
    this.#runners.delete(runner);
    void this.#spawn(true);
  }

  #giveBack(runner: Runner): void {
    if (this.#closed) {
      runner.kill();
      return;
    }
    const waiter = this.#waiting.shift();
    if (waiter !== undefined) waiter(runner);
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
        this.#giveBack(runner);
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
