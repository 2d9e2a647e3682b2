/**
 * How many edge jobs one isolate runs at once. An edge conversion's steps are synchronous (decode,
 * encode: engines/image/convert-image.ts yields to other work only between them), so every job
 * whose input has arrived is CPU work waiting its turn on the isolate's one thread, which under
 * `wrangler dev` also serves every request, the Durable Objects and the local R2. A request that
 * arrives behind them (the API's health, a CSRF token, a status) waits for them: 9–11 s during 64
 * concurrent 1 MP PNG → JPG with no bound, 1.5–5.2 s with two jobs running and four waiting.
 * Measured on the shared 2-core machine at load 36 (Node, the same codecs): one 1 MP PNG → JPG is
 * 0.45 s of CPU but 2.4–3.8 s of wall time, of which 1.2–1.8 s in the PNG decode and 0.7–1.5 s in
 * the JPEG encode, each one uninterrupted block. So one job runs at a time and none waits: a job
 * that arrives while one runs goes to the converter (job-runner.ts), another process, which
 * converts the same images to the same bytes; a request then waits for at most one step of one job.
 */

/** Edge jobs one isolate runs at once. */
export const EDGE_JOB_CONCURRENCY = 1;

/** Edge jobs that may wait for a slot; a job arriving when this many wait runs in the converter. */
export const EDGE_JOB_QUEUE = 0;

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

  /** Whether a job asking now would hold a slot or wait in a queue of at most `queue`. */
  admits(queue: number): boolean {
    return this.#running < this.size || this.#waiting.length < queue;
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
