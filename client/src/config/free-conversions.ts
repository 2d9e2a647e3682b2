import { freeConversionsUsedUp, parseFreeConversionsPerDay } from "../lib/free-conversions/free-conversions";

/**
 * Free conversions per 24 hours before starting a tool shows the Free Tool Access notice: the
 * operator's `VITE_FREE_CONVERSIONS_PER_DAY` at build time (default 5; 0 never shows it).
 */
export const FREE_CONVERSIONS_PER_DAY = parseFreeConversionsPerDay(
  import.meta.env.VITE_FREE_CONVERSIONS_PER_DAY,
);

/** True when this browser has used up its free conversions of the last 24 hours. */
export const freeConversionsUsedUpToday = () => freeConversionsUsedUp(FREE_CONVERSIONS_PER_DAY);
