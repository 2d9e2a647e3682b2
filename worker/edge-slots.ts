/**
 * How many edge jobs one isolate runs at once. An edge conversion is synchronous from decode to
 * encode (engines/image/convert-image.ts), so every job whose input has arrived is a block of CPU
 * work waiting its turn on the isolate's one thread; a request that arrives behind them (the API's
 * health, a CSRF token, a status) waited for all of them: 9–11 s during 64 concurrent 1 MP PNG → JPG.
 * With the jobs taken a few at a time, the rest wait here without their inputs loaded, and a
 * request waits for at most the few that run; once a few are waiting, further ones go to the
 * converter (job-runner.ts), which converts the same images to the same bytes.
 */

/** Edge jobs one isolate runs at once; the others queue, first come first served. */
export const EDGE_JOB_CONCURRENCY = 2;

/** Edge jobs that may wait for a slot; a job arriving when this many wait runs in the converter. */
export const EDGE_JOB_QUEUE = 2 * EDGE_JOB_CONCURRENCY;

/** A counting semaphore: `acquire` resolves when a slot is free, with the function that frees it. */
export class Slots {
  readonly size: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.size = size;
  }

  /** Jobs holding a slot now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  async acquire(): Promise<() => void> {
    if (this.#running < this.size) this.#running++;
    // A freed slot passes straight to the first waiter: #running stays as it is.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next();
    };
  }
}

/** The slots of this isolate's edge jobs (job-runner.ts). */
export const edgeSlots = new Slots(EDGE_JOB_CONCURRENCY);
