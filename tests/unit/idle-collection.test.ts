import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectingWhenIdle, IDLE_MS, MIN_INTERVAL_MS } from "../../worker/idle-collection.ts";

/** A handler that answers when `release` is called, and an execution context keeping waitUntil's promises. */
function harness(collector: (() => (() => void) | undefined) | undefined) {
  const collections: number[] = [];
  const collect = () => collections.push(Date.now());
  const pending: Promise<unknown>[] = [];
  const ctx = {
    waitUntil: (promise: Promise<unknown>) => pending.push(promise),
    passThroughOnException() {},
  };
  const releases: (() => void)[] = [];
  const inner = () => new Promise<Response>((resolve) => releases.push(() => resolve(new Response("ok"))));
  const fetch = collectingWhenIdle(inner, collector ?? (() => collect));
  const request = () => fetch(new Request("http://localhost/api/health"), {}, ctx);
  return { collections, pending, releases, request };
}

describe("collection once the Worker's isolate is idle", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it("collects once, IDLE_MS after the last request ended", async () => {
    const h = harness(undefined);
    const answer = h.request();
    h.releases[0]?.();
    await answer;
    await vi.advanceTimersByTimeAsync(IDLE_MS - 10);
    expect(h.collections).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(h.collections).toEqual([1_000_000 + IDLE_MS]);
    await vi.advanceTimersByTimeAsync(10 * MIN_INTERVAL_MS);
    expect(h.collections).toHaveLength(1);
  });

  it("never collects while a request is in flight, and collects after the last one ends", async () => {
    const h = harness(undefined);
    const first = h.request();
    const second = h.request();
    h.releases[0]?.();
    await first;
    await vi.advanceTimersByTimeAsync(5 * IDLE_MS);
    expect(h.collections).toEqual([]);
    h.releases[1]?.();
    await second;
    const ended = Date.now();
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(h.collections).toEqual([ended + IDLE_MS]);
  });

  it("waits for a request that starts during the quiet time", async () => {
    const h = harness(undefined);
    const first = h.request();
    h.releases[0]?.();
    await first;
    await vi.advanceTimersByTimeAsync(IDLE_MS / 2);
    const second = h.request();
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(h.collections).toEqual([]);
    h.releases[1]?.();
    await second;
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(h.collections).toHaveLength(1);
  });

  it("collects at most once per MIN_INTERVAL_MS", async () => {
    const h = harness(undefined);
    for (let i = 0; i < 5; i++) {
      const answer = h.request();
      h.releases[i]?.();
      await answer;
      await vi.advanceTimersByTimeAsync(IDLE_MS + 10);
    }
    expect(h.collections).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(MIN_INTERVAL_MS);
    expect(h.collections).toHaveLength(2);
    expect((h.collections[1] ?? 0) - (h.collections[0] ?? 0)).toBeGreaterThanOrEqual(MIN_INTERVAL_MS);
  });

  it("does nothing where the runtime exposes no collector", async () => {
    const h = harness(() => undefined);
    const answer = h.request();
    h.releases[0]?.();
    await answer;
    await vi.advanceTimersByTimeAsync(10 * MIN_INTERVAL_MS);
    expect(h.pending).toEqual([]);
    expect(h.collections).toEqual([]);
  });
});
