import type { MiddlewareHandler } from "hono";
import { AppError } from "../contract/index.ts";
import type { AppEnv } from "./env.ts";

/**
 * Same-origin only: a request is refused when the browser says it comes from another site
 * (`Sec-Fetch-Site: cross-site`) or names an `Origin` other than the API's own.
 */
export const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("Origin");
  const site = c.req.header("Sec-Fetch-Site");
  const own = new URL(c.req.url).origin;
  if ((origin !== undefined && origin !== own) || site === "cross-site") {
    throw new AppError("ORIGIN_FORBIDDEN", "Cross-origin requests are not allowed");
  }
  await next();
};
