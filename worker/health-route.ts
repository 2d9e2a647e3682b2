import type { Handler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HealthStatus } from "../contract/index.ts";
import { createConverterClient } from "./converter-client.ts";
import type { AppEnv, Env } from "./env.ts";

/** A health check answers within this time or counts as down. */
const HEALTH_TIMEOUT_MS = 3000;

/**
 * How long one answer of the converter's health check serves every `GET /api/health` of the
 * isolate: a client polling health (a monitor, bench:load's probe) costs the converter one call a
 * second at most, and a health request during a burst waits for no converter call of its own when
 * one answered within the last second. Concurrent requests share the call in flight.
 */
export const CONVERTER_STATUS_TTL_MS = 1000;

type HealthAnswer = { status: ContentfulStatusCode; body: HealthStatus };
type ConverterEnv = Pick<Env, "CONVERTER_URL" | "CONVERTER" | "CONVERTER_SECRET">;

/**
 * The site's health: 200 when the converter answers its health check, with its load and its job
 * runners (busy, idle, starting, replaced, wedged); 503 when it does not answer within
 * HEALTH_TIMEOUT_MS (stopped, unreachable). The converter's HTTP process answers it itself, so a
 * wedged runner never slows it.
 */
export async function healthStatus(env: ConverterEnv): Promise<HealthAnswer> {
  try {
    const { running, capacity, runners } = await createConverterClient(env).health(HEALTH_TIMEOUT_MS);
    return { status: 200, body: { ok: true, converter: { ok: true, running, capacity, runners } } };
  } catch {
    // unreachable, too slow or not answering its health check: down
    return { status: 503, body: { ok: false, converter: { ok: false } } };
  }
}

/** The last converter health check per converter address, with when it started. */
const recent = new Map<string, { startedAt: number; answer: Promise<HealthAnswer> }>();

/**
 * `healthStatus`, asked of the converter at most once per CONVERTER_STATUS_TTL_MS: a check started
 * less than that ago (answered or still in flight) answers for it. The timestamp is taken before
 * the call, so an answer is never older than the TTL plus its own duration.
 */
export function recentHealthStatus(env: ConverterEnv, now = Date.now()): Promise<HealthAnswer> {
  const key = env.CONVERTER_URL || "container";
  const last = recent.get(key);
  if (last !== undefined && now - last.startedAt < CONVERTER_STATUS_TTL_MS) return last.answer;
  const answer = healthStatus(env);
  recent.set(key, { startedAt: now, answer });
  return answer;
}

/**
 * GET /api/health. `Server-Timing: converter;dur=<ms>` says how long this request waited for the
 * converter's answer (0 when a recent one served it), so a client can tell that wait from the time
 * the request spent queued behind other work of the isolate (bench:load).
 */
export const healthRoute: Handler<AppEnv> = async (c) => {
  const started = Date.now();
  const { status, body } = await recentHealthStatus(c.env, started);
  c.header("Server-Timing", `converter;dur=${Date.now() - started}`);
  return c.json(body, status);
};
