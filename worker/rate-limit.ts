import type { Context } from "hono";
import { AppError } from "../contract/index.ts";
import type { AppEnv } from "./env.ts";

/** Key used when no client address is known (local development, where one user runs everything). */
const LOCAL_CLIENT = "local";

/** The calling client, as the rate limits count it. */
export function clientKey(c: Context<AppEnv>): string {
  return c.req.header("CF-Connecting-IP") ?? LOCAL_CLIENT;
}

/**
 * Counts one task creation for the calling client (CF-Connecting-IP) against the Workers Rate
 * Limiting binding; the limit and period are configured in wrangler.toml (`[[ratelimits]]`).
 */
export async function countTaskCreation(c: Context<AppEnv>): Promise<void> {
  const { success } = await c.env.TASK_RATE_LIMIT.limit({ key: clientKey(c) });
  if (!success) throw new AppError("RATE_LIMITED", "Too many tasks started; try again in a minute");
}

/**
 * Counts one status, download or delete request for the calling client (`TASK_READ_RATE_LIMIT`):
 * generous, since a page polls its task, but it bounds id guessing and hammering.
 */
export async function countTaskRead(c: Context<AppEnv>): Promise<void> {
  const { success } = await c.env.TASK_READ_RATE_LIMIT.limit({ key: clientKey(c) });
  if (!success) throw new AppError("RATE_LIMITED", "Too many status requests; try again in a minute");
}

/** Seconds a refused client waits: the limits' period (wrangler.toml). */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 60;
