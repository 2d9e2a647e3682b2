import { getRandom } from "@cloudflare/containers";
import type { Handler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CONVERTER_HEALTH_PATH, type HealthStatus, healthResponseSchema } from "../contract/index.ts";
import { CONVERTER_INSTANCES } from "./converter-container.ts";
import type { AppEnv, Env } from "./env.ts";

/** A health check answers within this time or counts as down. */
const HEALTH_TIMEOUT_MS = 3000;

/** The converter's /healthz, through CONVERTER_URL locally or a container instance in production. */
async function fetchConverterHealth(env: Pick<Env, "CONVERTER_URL" | "CONVERTER">): Promise<Response> {
  const signal = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
  if (env.CONVERTER_URL) return fetch(new URL(CONVERTER_HEALTH_PATH, env.CONVERTER_URL), { signal });
  const container = await getRandom(env.CONVERTER, CONVERTER_INSTANCES);
  return container.fetch(new Request(new URL(CONVERTER_HEALTH_PATH, "http://converter"), { signal }));
}

/** The site's health: 200 when the converter answers its health check, 503 (and why) when not. */
export async function healthStatus(
  env: Pick<Env, "CONVERTER_URL" | "CONVERTER">,
): Promise<{ status: ContentfulStatusCode; body: HealthStatus }> {
  try {
    const response = await fetchConverterHealth(env);
    const parsed = healthResponseSchema.safeParse(response.ok ? await response.json() : null);
    if (parsed.success) {
      const { running, capacity } = parsed.data;
      return { status: 200, body: { ok: true, converter: { ok: true, running, capacity } } };
    }
  } catch {
    // unreachable or too slow: down
  }
  return { status: 503, body: { ok: false, converter: { ok: false } } };
}

/** GET /api/health. */
export const healthRoute: Handler<AppEnv> = async (c) => {
  const { status, body } = await healthStatus(c.env);
  return c.json(body, status);
};
