import { API_PATHS, CSRF_HEADER, csrfTokenResponseSchema } from "../contract";
import { ApiError, errorFromResponse, parseJson } from "./api-error";

let cached: Promise<string> | null = null;

async function fetchToken(): Promise<string> {
  let response: Response;
  try {
    response = await fetch(API_PATHS.csrfToken, { credentials: "same-origin", cache: "no-store" });
  } catch (error) {
    throw new ApiError({
      message: `Failed to get CSRF token: ${String(error)}`,
      fallbackKey: "errors.csrfFailed",
    });
  }
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, text, "errors.csrfFailed");
  const body = parseJson(text);
  const parsed = csrfTokenResponseSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ message: "Failed to get CSRF token", fallbackKey: "errors.csrfFailed" });
  }
  return parsed.data.csrf_token;
}

/** The CSRF token, fetched once and cached; `refresh` fetches a new one. */
export function getCsrfToken(refresh = false): Promise<string> {
  if (refresh || !cached) {
    cached = fetchToken();
    // A failed fetch is not cached: the next call tries again.
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}

/**
 * Runs a state-changing request with the CSRF header. When the server answers CSRF_INVALID
 * (the token expired), the token is fetched again and the request retried once.
 */
export async function withCsrf<T>(send: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const token = await getCsrfToken();
  try {
    return await send({ [CSRF_HEADER]: token });
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "CSRF_INVALID") throw error;
    const fresh = await getCsrfToken(true);
    return send({ [CSRF_HEADER]: fresh });
  }
}
