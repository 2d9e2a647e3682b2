import type { Context } from "hono";
import { AppError } from "../contract/index.ts";
import type { AppEnv } from "./env.ts";

/** Key used when no client address is known (local development, where one user runs everything). */
const LOCAL_CLIENT = "local";

/**
 * Counts one task creation for the calling client (CF-Connecting-IP) against the Workers Rate
 * Limiting binding; the limit and period are configured in wrangler.toml (`[[ratelimits]]`).
 */
export async function countTaskCreation(c: Context<AppEnv>): Promise<void> {
  const key = c.req.header("CF-Connecting-IP") ?? LOCAL_CLIENT;
  const { success } = await c.env.TASK_RATE_LIMIT.limit({ key });
  if (!success) throw new AppError("RATE_LIMITED", "Too many tasks started; try again in a minute");
}
