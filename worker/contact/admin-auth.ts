import type { Context } from "hono";
import { AppError } from "../../contract/index.ts";
import type { AppEnv } from "../env.ts";

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

/**
 * Admin routes need `Authorization: Bearer <ADMIN_TOKEN>`. Without the setting they do not exist
 * (404 NOT_FOUND); with a missing or wrong token they answer 401 UNAUTHORIZED. A bearer token is
 * never sent by a browser on its own, so these routes need no CSRF token.
 */
export async function requireAdmin(c: Context<AppEnv>): Promise<void> {
  const secret = c.env.ADMIN_TOKEN;
  if (!secret) throw new AppError("NOT_FOUND", "Not found");
  const given = /^Bearer[ ]+(\S+)[ ]*$/i.exec(c.req.header("Authorization") ?? "")?.[1];
  if (given === undefined || !(await sameSecret(given, secret))) {
    c.header("WWW-Authenticate", 'Bearer realm="admin"');
    throw new AppError("UNAUTHORIZED", "A valid admin bearer token is required");
  }
}
