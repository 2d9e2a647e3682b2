/**
 * The browser's own count of its recent conversions, behind the Free Tool Access notice (spec §2):
 * the times of finished tasks are kept in localStorage, never sent anywhere, and forgotten after
 * 24 hours. Once a visitor has made the configured number of conversions in the last 24 hours,
 * starting a tool first shows the notice.
 */

/** localStorage key holding the times (ms since 1970) of this browser's conversions of the last 24 hours. */
export const FREE_CONVERSIONS_KEY = "freeConversions";
export const FREE_CONVERSIONS_WINDOW_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_FREE_CONVERSIONS_PER_DAY = 5;
/** More times than any sensible limit needs; bounds what a runaway counter could store. */
const MAX_KEPT = 1000;

type TimeStore = Pick<Storage, "getItem" | "setItem">;

/**
 * The operator's limit as set in `VITE_FREE_CONVERSIONS_PER_DAY` (config/free-conversions.ts): a whole number ≥ 0, where 0 turns the
 * notice off; missing or malformed values give the default.
 */
export function parseFreeConversionsPerDay(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_FREE_CONVERSIONS_PER_DAY;
  const limit = Number(value);
  return Number.isSafeInteger(limit) && limit >= 0 ? limit : DEFAULT_FREE_CONVERSIONS_PER_DAY;
}

/** localStorage, or null where the browser refuses it (some private modes): nothing is counted then. */
function browserStore(): TimeStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The stored times still inside the window ending at `now`, oldest first; anything malformed is dropped. */
export function recentConversions(store: TimeStore | null = browserStore(), now = Date.now()): number[] {
  let stored: unknown;
  try {
    stored = JSON.parse(store?.getItem(FREE_CONVERSIONS_KEY) ?? "[]");
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(
      (time): time is number =>
        typeof time === "number" && time <= now && now - time < FREE_CONVERSIONS_WINDOW_MS,
    )
    .sort((a, b) => a - b);
}

/** Counts one finished conversion at `now`, dropping the times older than 24 hours. */
export function recordConversion(store: TimeStore | null = browserStore(), now = Date.now()): void {
  const times = [...recentConversions(store, now), now].slice(-MAX_KEPT);
  try {
    store?.setItem(FREE_CONVERSIONS_KEY, JSON.stringify(times));
  } catch {
    // Storage full or refused: the conversion simply goes uncounted.
  }
}

/** True when starting a tool should first show the Free Tool Access notice (a limit of 0 never does). */
export function freeConversionsUsedUp(
  limit: number,
  store: TimeStore | null = browserStore(),
  now = Date.now(),
): boolean {
  return limit > 0 && recentConversions(store, now).length >= limit;
}
