/**
 * A collection when the isolate goes idle, where the runtime offers one.
 *
 * workerd runs the work V8 schedules for an isolate (among it the collections that free memory
 * held outside the JS heap) only while a request is in it, so what the last requests of a burst
 * left behind — upload chunks, R2 bodies, the wrappers of converter answers — stays allocated until
 * the next request arrives: 46–278 MB after bursts of 3.4 MB uploads (README "Where the idle memory
 * is"). When the runtime exposes V8's `gc` (the local runtime does, scripts/worker-runtime.ts;
 * Cloudflare's does not, and then this does nothing), the isolate collects once no request has been
 * in it for `IDLE_MS`, at most once per `MIN_INTERVAL_MS`, never while a request is in flight.
 */

/** Quiet time before a collection: a burst's requests follow each other closer than this. */
export const IDLE_MS = 250;
/** At most one collection per this long: a full collection of the Worker's ~10 MB heap takes a few ms. */
export const MIN_INTERVAL_MS = 2000;

interface IdleState {
  inFlight: number;
  lastActivity: number;
  lastCollection: number;
  waiting: boolean;
}

/** V8's `gc`, when the runtime was started with `--expose-gc`. */
function exposedCollector(): (() => void) | undefined {
  const collect = (globalThis as { gc?: unknown }).gc;
  return typeof collect === "function" ? (collect as () => void) : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until the isolate has been idle long enough, then collects (unless a request came in). */
async function collectWhenIdle(state: IdleState, collect: () => void): Promise<void> {
  state.waiting = true;
  try {
    for (;;) {
      const now = Date.now();
      const wait = Math.max(
        IDLE_MS - (now - state.lastActivity),
        MIN_INTERVAL_MS - (now - state.lastCollection),
      );
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      // A request in flight schedules the next attempt when it ends.
      if (state.inFlight > 0) return;
      collect();
      state.lastCollection = Date.now();
      return;
    }
  } finally {
    state.waiting = false;
  }
}

/** What of an execution context the collection needs. */
interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void;
}

/** `handle`, counting requests in flight; the last one to end schedules the idle collection. */
export function collectingWhenIdle<R, E, C extends WaitUntil>(
  handle: (request: R, env: E, ctx: C) => Response | Promise<Response>,
  collector = exposedCollector,
): (request: R, env: E, ctx: C) => Promise<Response> {
  const state: IdleState = { inFlight: 0, lastActivity: 0, lastCollection: 0, waiting: false };
  return async (request, env, ctx) => {
    state.inFlight++;
    state.lastActivity = Date.now();
    try {
      return await handle(request, env, ctx);
    } finally {
      state.inFlight--;
      state.lastActivity = Date.now();
      const collect = collector();
      if (collect !== undefined && state.inFlight === 0 && !state.waiting) {
        ctx.waitUntil(collectWhenIdle(state, collect));
      }
    }
  };
}
