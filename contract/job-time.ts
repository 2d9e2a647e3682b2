import type { ToolDeclaration } from "./tool-kit.ts";

/** The converter's time limit of one job by default (JOB_TIMEOUT_MS), whatever its size. */
export const DEFAULT_JOB_TIMEOUT_MS = 120_000;

/**
 * The time limit of a job of `tool` on `pages` pages when the converter's base limit is `baseMs`:
 * the base limit, or, for a tool that declares time per page (`jobTime.perPageMs`, at the default
 * base), that much per page when it comes to more. A lowered or raised base (tests, a slower
 * machine) scales the time per page with it. `pages` counts at most the tool's `maxPages`.
 */
export function jobTimeLimitMs(
  tool: ToolDeclaration,
  pages: number,
  baseMs = DEFAULT_JOB_TIMEOUT_MS,
): number {
  const perPageMs = tool.jobTime?.perPageMs;
  if (perPageMs === undefined) return baseMs;
  const counted = Math.min(Math.max(0, pages), tool.input.maxPages ?? Number.POSITIVE_INFINITY);
  return Math.max(baseMs, Math.ceil((counted * perPageMs * baseMs) / DEFAULT_JOB_TIMEOUT_MS));
}

/** The longest time limit a job of `tool` can get (at its `maxPages`; the base limit without one). */
export function maxJobTimeLimitMs(tool: ToolDeclaration, baseMs = DEFAULT_JOB_TIMEOUT_MS): number {
  return jobTimeLimitMs(tool, tool.input.maxPages ?? 0, baseMs);
}
