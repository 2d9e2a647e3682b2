import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ACCESS_COUNTDOWN_SECONDS,
  ACCESS_LOADING_MS,
  type AccessPhase,
  runAccessClock,
} from "../../client/src/features/premium/access-clock.ts";
import {
  DEFAULT_FREE_CONVERSIONS_PER_DAY,
  FREE_CONVERSIONS_KEY,
  FREE_CONVERSIONS_WINDOW_MS,
  freeConversionsUsedUp,
  parseFreeConversionsPerDay,
  recentConversions,
  recordConversion,
} from "../../client/src/lib/free-conversions/free-conversions.ts";
import {
  awaitFreeToolAccess,
  connectFreeToolAccessDialog,
  freeToolAccessRequest,
  settleFreeToolAccess,
} from "../../client/src/lib/free-conversions/free-tool-access.ts";

/** An in-memory stand-in for localStorage. */
function memoryStore(initial?: string) {
  const values = new Map<string, string>();
  if (initial !== undefined) values.set(FREE_CONVERSIONS_KEY, initial);
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    raw: () => values.get(FREE_CONVERSIONS_KEY),
  };
}

const HOUR = 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 23, 12);

describe("free conversion counter", () => {
  it("counts conversions and forgets those older than 24 hours", () => {
    const store = memoryStore();
    recordConversion(store, NOW - 25 * HOUR);
    recordConversion(store, NOW - 23 * HOUR);
    recordConversion(store, NOW - HOUR);
    expect(recentConversions(store, NOW)).toEqual([NOW - 23 * HOUR, NOW - HOUR]);
    // Two hours later the 23-hour-old one has left the window.
    expect(recentConversions(store, NOW + 2 * HOUR)).toEqual([NOW - HOUR]);
    // Recording prunes what is stored, so the list never grows past the window.
    recordConversion(store, NOW + 2 * HOUR);
    expect(JSON.parse(store.raw() ?? "")).toEqual([NOW - HOUR, NOW + 2 * HOUR]);
  });

  it("treats a conversion exactly 24 hours old as expired", () => {
    const store = memoryStore(
      JSON.stringify([NOW - FREE_CONVERSIONS_WINDOW_MS, NOW - FREE_CONVERSIONS_WINDOW_MS + 1]),
    );
    expect(recentConversions(store, NOW)).toEqual([NOW - FREE_CONVERSIONS_WINDOW_MS + 1]);
  });

  it("ignores malformed or tampered storage", () => {
    expect(recentConversions(memoryStore("not json"), NOW)).toEqual([]);
    expect(recentConversions(memoryStore('{"a":1}'), NOW)).toEqual([]);
    expect(recentConversions(memoryStore(JSON.stringify(["x", null, NOW - HOUR, NOW + HOUR])), NOW)).toEqual([
      NOW - HOUR,
    ]);
    expect(recentConversions(null, NOW)).toEqual([]);
    expect(() => recordConversion(null, NOW)).not.toThrow();
  });

  it("is used up once the limit is reached within 24 hours", () => {
    const store = memoryStore();
    for (const hoursAgo of [3, 2, 1, 0]) recordConversion(store, NOW - hoursAgo * HOUR);
    expect(freeConversionsUsedUp(5, store, NOW)).toBe(false);
    recordConversion(store, NOW);
    expect(freeConversionsUsedUp(5, store, NOW)).toBe(true);
    expect(freeConversionsUsedUp(6, store, NOW)).toBe(false);
    // The oldest (3 hours ago) drops out 21 hours later plus a moment: below the limit again.
    expect(freeConversionsUsedUp(5, store, NOW - 3 * HOUR + FREE_CONVERSIONS_WINDOW_MS)).toBe(false);
  });

  it("never shows the notice with a limit of 0", () => {
    const store = memoryStore();
    for (let i = 50; i > 0; i--) recordConversion(store, NOW - i * 1000);
    expect(recentConversions(store, NOW)).toHaveLength(50);
    expect(freeConversionsUsedUp(5, store, NOW)).toBe(true);
    expect(freeConversionsUsedUp(0, store, NOW)).toBe(false);
  });

  it("reads the operator's limit from the build variable, defaulting to 5", () => {
    expect(DEFAULT_FREE_CONVERSIONS_PER_DAY).toBe(5);
    expect(parseFreeConversionsPerDay(undefined)).toBe(5);
    expect(parseFreeConversionsPerDay("")).toBe(5);
    expect(parseFreeConversionsPerDay("0")).toBe(0);
    expect(parseFreeConversionsPerDay("12")).toBe(12);
    expect(parseFreeConversionsPerDay(" 3 ")).toBe(3);
    for (const bad of ["-1", "2.5", "five", "1e400"]) expect(parseFreeConversionsPerDay(bad), bad).toBe(5);
  });
});

describe("Free Tool Access gate", () => {
  it("lets a tool start at once when conversions remain or no dialog is mounted", async () => {
    await expect(awaitFreeToolAccess(() => true)).resolves.toBe(true);
    const disconnect = connectFreeToolAccessDialog(() => {});
    await expect(awaitFreeToolAccess(() => false)).resolves.toBe(true);
    expect(freeToolAccessRequest()).toBeNull();
    disconnect();
  });

  it("waits for the dialog's answer when the free conversions are used up", async () => {
    const changes = vi.fn();
    const disconnect = connectFreeToolAccessDialog(changes);
    const proceed = awaitFreeToolAccess(() => true);
    expect(freeToolAccessRequest()).not.toBeNull();
    expect(changes).toHaveBeenCalledTimes(1);
    settleFreeToolAccess(true);
    await expect(proceed).resolves.toBe(true);
    expect(freeToolAccessRequest()).toBeNull();

    const closed = awaitFreeToolAccess(() => true);
    settleFreeToolAccess(false);
    await expect(closed).resolves.toBe(false);

    // Leaving the page (the dialog unmounts) abandons a waiting start.
    const abandoned = awaitFreeToolAccess(() => true);
    disconnect();
    await expect(abandoned).resolves.toBe(false);
    expect(freeToolAccessRequest()).toBeNull();
  });
});

describe("Free Tool Access clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("loads for 1.5 s, counts down 5 seconds, then becomes dismissible", () => {
    vi.useFakeTimers();
    const phases: AccessPhase[] = [];
    const stop = runAccessClock((phase) => phases.push(phase));
    const last = () => phases.at(-1);
    expect(ACCESS_LOADING_MS).toBe(1500);
    expect(ACCESS_COUNTDOWN_SECONDS).toBe(5);
    expect(last()).toEqual({ name: "loading" });
    vi.advanceTimersByTime(1499);
    expect(last()).toEqual({ name: "loading" });
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ name: "waiting", seconds: 5 });
    for (const seconds of [4, 3, 2, 1]) {
      vi.advanceTimersByTime(999);
      expect(last()).toEqual({ name: "waiting", seconds: seconds + 1 });
      vi.advanceTimersByTime(1);
      expect(last()).toEqual({ name: "waiting", seconds });
    }
    vi.advanceTimersByTime(999);
    expect(last()).toEqual({ name: "waiting", seconds: 1 });
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ name: "ready" });
    // 1.5 s + 5 s in all, and nothing after.
    expect(phases).toHaveLength(7);
    vi.advanceTimersByTime(60_000);
    expect(phases).toHaveLength(7);
    stop();
  });

  it("stops when the dialog goes away", () => {
    vi.useFakeTimers();
    const phases: AccessPhase[] = [];
    const stop = runAccessClock((phase) => phases.push(phase));
    vi.advanceTimersByTime(2000);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(phases).toEqual([{ name: "loading" }, { name: "waiting", seconds: 5 }]);
  });
});
