import type { Context, ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, type ErrorCode, type ErrorEnvelope, errorStatus } from "../contract/index.ts";
import type { AppEnv } from "./env.ts";
import { RATE_LIMIT_RETRY_AFTER_SECONDS } from "./rate-limit.ts";
import { drainRequestBody } from "./uploads/drain.ts";

/**
 * Seconds a client waits before sending again a request answered 500 (our failure) or 503 (the
 * converter busy or unreachable): both may pass, so every such answer says when to retry.
 */
export const SERVER_ERROR_RETRY_AFTER_SECONDS = 5;

/** The Retry-After of an error answer: the rate limit's window, a server error's pause, else none. */
function retryAfter(code: ErrorCode): Record<string, string> {
  if (code === "RATE_LIMITED") return { "Retry-After": String(RATE_LIMIT_RETRY_AFTER_SECONDS) };
  const status = errorStatus(code);
  return status === 500 || status === 503 ? { "Retry-After": String(SERVER_ERROR_RETRY_AFTER_SECONDS) } : {};
}

/** The contract's error envelope with the code's status. */
export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  const body: ErrorEnvelope = { error: error.toBody(), request_id: c.get("requestId") };
  return c.json(body, errorStatus(error.code) as ContentfulStatusCode, retryAfter(error.code));
}

/**
 * The Worker's entry: the app, and an INTERNAL envelope with its Retry-After for anything thrown
 * outside the app's own error handler (which answers everything thrown inside it), so no request
 * the Worker sees is answered by the runtime's plain-text 500.
 */
export function guardedFetch<E>(
  handle: (request: Request, env: E, ctx: ExecutionContext) => Response | Promise<Response>,
): ExportedHandlerFetchHandler<E> {
  return async (request, env, ctx) => {
    try {
      return await handle(request as unknown as Request, env, ctx);
    } catch (error) {
      const detail = error instanceof Error ? { error: error.name, message: error.message } : {};
      console.error(JSON.stringify({ level: "error", path: new URL(request.url).pathname, ...detail }));
      const body: ErrorEnvelope = {
        error: new AppError("INTERNAL", "An unexpected error occurred").toBody(),
      };
      return Response.json(body, { status: 500, headers: retryAfter("INTERNAL") });
    }
  };
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
