import type { Context, ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, type ErrorEnvelope, errorStatus } from "../contract/index.ts";
import type { AppEnv } from "./env.ts";
import { RATE_LIMIT_RETRY_AFTER_SECONDS } from "./rate-limit.ts";
import { drainRequestBody } from "./uploads/drain.ts";

/** The contract's error envelope with the code's status. */
export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  const body: ErrorEnvelope = { error: error.toBody(), request_id: c.get("requestId") };
  const headers: Record<string, string> =
    error.code === "RATE_LIMITED" ? { "Retry-After": String(RATE_LIMIT_RETRY_AFTER_SECONDS) } : {};
  return c.json(body, errorStatus(error.code) as ContentfulStatusCode, headers);
}

/**
 * The one error handler of the API: `AppError`s become their envelope; anything else is logged
 * server-side with the request id (never file names) and answered as a generic INTERNAL error.
 * A body refused before anyone read it (CSRF, rate limit, Content-Length too large) is drained
 * first, bounded, so the refusal arrives intact and the connection stays usable (see drain.ts).
 */
export const onError: ErrorHandler<AppEnv> = async (err, c) => {
  await drainRequestBody(c.req.raw);
  if (err instanceof AppError) return errorResponse(c, err);
  console.error(
    JSON.stringify({
      level: "error",
      request_id: c.get("requestId"),
      path: new URL(c.req.url).pathname,
      error: err.name,
      message: err.message,
      stack: err.stack,
    }),
  );
  return errorResponse(c, new AppError("INTERNAL", "An unexpected error occurred"));
};
