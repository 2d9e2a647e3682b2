import type { Context } from "hono";
import { AppError } from "../../contract/index.ts";
import type { AppEnv } from "../env.ts";
import { clientKey, RATE_LIMIT_RETRY_AFTER_SECONDS } from "../rate-limit.ts";

const encoder = new TextEncoder();

async function digest(value: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/**
 * True when `given` equals `secret`. Both are hashed first, so the comparison is over equal
 * lengths and takes the same time whatever the inputs (timingSafeEqual), leaking neither the
 * secret's length nor how much of it matched.
 */
export async function sameSecret(given: string, secret: string): Promise<boolean> {
  const [left, right] = await Promise.all([digest(given), digest(secret)]);
  return crypto.subtle.timingSafeEqual(left, right);
}

/** Clients refused for too many wrong tokens, with the time (ms) until which they stay refused. */
const throttled = new Map<string, number>();
/** Entries kept at most; expired ones are dropped first when it fills. */
const MAX_THROTTLED_CLIENTS = 10_000;

function throttle(client: string): void {
  const now = Date.now();
  if (throttled.size >= MAX_THROTTLED_CLIENTS) {
    for (const [key, until] of throttled) if (until <= now) throttled.delete(key);
    if (throttled.size >= MAX_THROTTLED_CLIENTS) throttled.clear();
  }
  throttled.set(client, now + RATE_LIMIT_RETRY_AFTER_SECONDS * 1000);
}

const adminRateLimited = () => new AppError("RATE_LIMITED", "Too many wrong admin tokens; try again later");

/**
 * Admin routes need `Authorization: Bearer <ADMIN_TOKEN>`. Without the setting they do not exist
 * (404 NOT_FOUND); with a missing or wrong token they answer 401 UNAUTHORIZED. A bearer token is
 * never sent by a browser on its own, so these routes need no CSRF token. Wrong tokens are counted
 * per client (`CONTACT_RATE_LIMIT` under an `admin:` key, 5 a minute): beyond that the client's
 * admin requests, right token or not, answer 429 RATE_LIMITED for a minute without being compared,
 * so guessing gains nothing from speed.
 */
export async function requireAdmin(c: Context<AppEnv>): Promise<void> {
  const secret = c.env.ADMIN_TOKEN;
  if (!secret) throw new AppError("NOT_FOUND", "Not found");
  const client = clientKey(c);
  if ((throttled.get(client) ?? 0) > Date.now()) throw adminRateLimited();
  const given = /^Bearer[ ]+(\S+)[ ]*$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (given === undefined || !(await sameSecret(given, secret))) {
    const { success } = await c.env.CONTACT_RATE_LIMIT.limit({ key: `admin:${client}` });
    if (!success) {
      throttle(client);
      throw adminRateLimited();
    }
    c.header("WWW-Authenticate", 'Bearer realm="admin"');
    throw new AppError("UNAUTHORIZED", "A valid admin bearer token is required");
  }
}
