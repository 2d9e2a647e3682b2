import type { Handler, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { AppError, CSRF_COOKIE, CSRF_HEADER, csrfTokenResponseSchema } from "../contract/index.ts";
import { fromBase64url, toBase64url } from "./base64url.ts";
import type { AppEnv } from "./env.ts";

/**
 * Signed double-submit CSRF protection. What protects a state-changing request:
 * - the X-CSRF-Token header: a cross-site page cannot set a custom header without a CORS preflight,
 *   which this API never grants, and it cannot read the token from GET csrf-token's JSON answer;
 * - the same-origin guard (origin-guard.ts), which refuses foreign Origin / Sec-Fetch-Site;
 * - the signature: the token is `random.HMAC-SHA256(CSRF_SECRET, random)` and must equal the
 *   cookie, so a cookie planted from a sibling subdomain without a valid signature fails.
 * The page takes the token from the JSON answer, never from the cookie, so the cookie is HttpOnly:
 * a script injected into the page cannot lift it from document.cookie.
 */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function signingKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret) throw new Error("CSRF_SECRET is not configured");
  let key = keys.get(secret);
  if (key === undefined) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

export async function issueCsrfToken(secret: string | undefined): Promise<string> {
  const random = toBase64url(crypto.getRandomValues(new Uint8Array(32)));
  const mac = await crypto.subtle.sign("HMAC", await signingKey(secret), encoder.encode(random));
  return `${random}.${toBase64url(new Uint8Array(mac))}`;
}

/** True when the token carries a valid signature (checked in constant time by WebCrypto). */
export async function isSignedCsrfToken(secret: string | undefined, token: string): Promise<boolean> {
  const [random, mac, extra] = token.split(".");
  if (random === undefined || mac === undefined || extra !== undefined || random.length === 0) return false;
  const signature = fromBase64url(mac);
  if (signature === null) return false;
  return crypto.subtle.verify("HMAC", await signingKey(secret), signature, encoder.encode(random));
}

function sameToken(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

function cookieHeader(token: string, secure: boolean): string {
  return `${CSRF_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** GET csrf-token: answers the token (reusing a valid cookie, so several tabs agree) and sets the cookie. */
export const csrfTokenRoute: Handler<AppEnv> = async (c) => {
  const current = getCookie(c, CSRF_COOKIE);
  const token =
    current !== undefined && (await isSignedCsrfToken(c.env.CSRF_SECRET, current))
      ? current
      : await issueCsrfToken(c.env.CSRF_SECRET);
  c.header("Set-Cookie", cookieHeader(token, new URL(c.req.url).protocol === "https:"));
  return c.json(csrfTokenResponseSchema.parse({ csrf_token: token }));
};

/** Every state-changing request needs the header equal to the cookie, and a validly signed token. */
export const requireCsrf: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (STATE_CHANGING.has(c.req.method)) {
    const header = c.req.header(CSRF_HEADER);
    const cookie = getCookie(c, CSRF_COOKIE);
    const valid =
      header !== undefined &&
      cookie !== undefined &&
      sameToken(header, cookie) &&
      (await isSignedCsrfToken(c.env.CSRF_SECRET, header));
    if (!valid) throw new AppError("CSRF_INVALID", "Missing or invalid CSRF token");
  }
  await next();
};
