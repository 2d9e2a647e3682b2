import type { Handler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HealthStatus } from "../contract/index.ts";
import { converterHeardAt, converterKey, createConverterClient } from "./converter-client.ts";
import type { AppEnv, Env } from "./env.ts";

/** A health check answers within this time or counts as down. */
const HEALTH_TIMEOUT_MS = 3000;

/**
 * Health answers from the converter's last answer and refreshes it in the background: a refresh
 * starts when the last answer is older than CONVERTER_STATUS_TTL_MS, and a request waits for the
 * converter only when there is no answer younger than CONVERTER_STATUS_MAX_AGE_MS (the TTL plus the
 * health timeout plus a second). So a converter that stops answering is reported down within about
 * 4 s, and a health request never waits for a busy converter's answer: measured during bursts of 64
 * tasks at load 41–48, the converter's health answer alone took 1.0–2.7 s at p95 (Server-Timing),
 * and every request waited for its own call, since each took longer than the TTL.
 */
export const CONVERTER_STATUS_TTL_MS = 1000;
export const CONVERTER_STATUS_MAX_AGE_MS = CONVERTER_STATUS_TTL_MS + HEALTH_TIMEOUT_MS + 1000;

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

/** Per converter address: its last answer (when it arrived) and the refresh in flight. */
const recent = new Map<
  string,
  { last?: { at: number; answer: HealthAnswer }; refresh?: Promise<HealthAnswer> }
>();

/**
 * The converter's health as of its last answer, refreshed as CONVERTER_STATUS_TTL_MS says:
 * `answer` is the last answer when it is younger than CONVERTER_STATUS_MAX_AGE_MS, otherwise the
 * refresh's; `refresh` is the call started by this request, if any (keep it alive with waitUntil).
 * A refresh that fails while the converter sent a job's frames to this isolate within
 * CONVERTER_STATUS_MAX_AGE_MS keeps the last good answer: a converter streaming jobs is up, and its
 * late health answer is the Worker's own thread held up by those jobs (bench:load: 3–7 such 503s
 * per burst of 64 merges while the converter answered its own /healthz in 2–21 ms). A stopped
 * converter sends nothing, so it is still reported down within about 5 s. For the same reason a
 * request does not wait for a refresh while the converter was heard from within that time: the last
 * good answer stands (measured: requests waiting for the refresh took 4–10 s at p95 during bursts
 * of 64 3.4 MB merges). `check` is the converter call (a test passes its own).
 */
export function recentHealthStatus(
  env: ConverterEnv,
  now = Date.now(),
  check: (env: ConverterEnv) => Promise<HealthAnswer> = healthStatus,
): { answer: Promise<HealthAnswer>; refresh: Promise<HealthAnswer> | undefined } {
  const key = converterKey(env);
  let entry = recent.get(key);
  if (entry === undefined) {
    entry = {};
    recent.set(key, entry);
  }
  const state = entry;
  let refresh: Promise<HealthAnswer> | undefined;
  if (
    state.refresh === undefined &&
    (state.last === undefined || now - state.last.at >= CONVERTER_STATUS_TTL_MS)
  ) {
    refresh = check(env).then((answer) => {
      const at = Date.now();
      const previous = state.last?.answer;
      const heard = converterHeardAt(key);
      const streaming =
        answer.status !== 200 &&
        previous?.status === 200 &&
        heard !== undefined &&
        at - heard < CONVERTER_STATUS_MAX_AGE_MS;
      const kept = streaming ? previous : answer;
      state.last = { at, answer: kept };
      state.refresh = undefined;
      return kept;
    });
    state.refresh = refresh;
  }
  const last = state.last;
  const heard = converterHeardAt(key);
  // Too old to stand for the converter, unless the converter was heard from meanwhile.
  const fresh = last !== undefined && now - last.at < CONVERTER_STATUS_MAX_AGE_MS;
  const vouched =
    last?.answer.status === 200 && heard !== undefined && now - heard < CONVERTER_STATUS_MAX_AGE_MS;
  if (last !== undefined && (fresh || vouched)) {
    return { answer: Promise.resolve(last.answer), refresh };
  }
  return { answer: state.refresh ?? check(env), refresh };
}

/**
 * GET /api/health. `Server-Timing: converter;dur=<ms>` says how long this request waited for the
 * converter's answer (0 when its last answer served it), so a client can tell that wait from the time
 * the request spent queued behind other work of the isolate (bench:load).
 */
export const healthRoute: Handler<AppEnv> = async (c) => {
  const started = Date.now();
  const { answer, refresh } = recentHealthStatus(c.env, started);
  if (refresh !== undefined) c.executionCtx.waitUntil(refresh);
  const { status, body } = await answer;
  c.header("Server-Timing", `converter;dur=${Date.now() - started}`);
  return c.json(body, status);
};
