import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { SECURITY_HEADERS } from "./security-headers.ts";

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * Gives every API request an id (echoed in the envelope and `X-Request-Id`) and puts the security
 * headers and `Cache-Control: no-store` on every API response, errors included.
 */
export const apiHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set("requestId", requestId);
  await next();
  // Responses built from other responses (R2 bodies, fetches) may carry immutable headers.
  const response = new Response(c.res.body, c.res);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  response.headers.set("Cache-Control", "no-store");
  response.headers.set(REQUEST_ID_HEADER, requestId);
  c.res = response;
};
