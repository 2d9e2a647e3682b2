import type { Handler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HealthStatus } from "../contract/index.ts";
import { createConverterClient } from "./converter-client.ts";
import type { AppEnv, Env } from "./env.ts";

/** A health check answers within this time or counts as down. */
const HEALTH_TIMEOUT_MS = 3000;

/**
 * The site's health: 200 when the converter answers its health check, with its load and its job
 * runners (busy, idle, starting, replaced, wedged); 503 when it does not answer within
 * HEALTH_TIMEOUT_MS (stopped, unreachable). The converter's HTTP process answers it itself, so a
 * wedged runner never slows it.
 */
export async function healthStatus(
  env: Pick<Env, "CONVERTER_URL" | "CONVERTER" | "CONVERTER_SECRET">,
): Promise<{ status: ContentfulStatusCode; body: HealthStatus }> {
  try {
    const { running, capacity, runners } = await createConverterClient(env).health(HEALTH_TIMEOUT_MS);
    return { status: 200, body: { ok: true, converter: { ok: true, running, capacity, runners } } };
  } catch {
    // unreachable, too slow or not answering its health check: down
    return { status: 503, body: { ok: false, converter: { ok: false } } };
  }
}

/** GET /api/health. */
export const healthRoute: Handler<AppEnv> = async (c) => {
  const { status, body } = await healthStatus(c.env);
  return c.json(body, status);
};
