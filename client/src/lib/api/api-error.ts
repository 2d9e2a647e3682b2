import {
  type ErrorBody,
  type ErrorCode,
  errorCodeSchema,
  errorEnvelopeSchema,
  errorLocaleKey,
} from "../contract";

/** Locale keys of client-side failures that have no server error code (spec §8). */
export type FallbackErrorKey =
  | "errors.csrfFailed"
  | "errors.statusFailed"
  | "errors.statusCheckFailed"
  | "errors.taskFailed"
  | "errors.network"
  | "errors.unexpected";

/**
 * A failed API call as data: the server's error code when it sent one (the UI shows
 * `errors.codes.<CODE>`), otherwise the locale key of the client-side situation.
 */
export class ApiError extends Error {
  readonly code: ErrorCode | null;
  readonly fallbackKey: FallbackErrorKey;
  readonly status: number | null;
  readonly requestId: string | null;
  /** What the server said about the cause (e.g. `file_index` and `file_name` of the file at fault). */
  readonly context: NonNullable<ErrorBody["context"]>;

  constructor(options: {
    message: string;
    code?: ErrorCode | null;
    fallbackKey?: FallbackErrorKey;
    status?: number | null;
    requestId?: string | null;
    context?: ErrorBody["context"];
  }) {
    super(options.message);
    this.name = "ApiError";
    this.code = options.code ?? null;
    this.fallbackKey = options.fallbackKey ?? "errors.unexpected";
    this.status = options.status ?? null;
    this.requestId = options.requestId ?? null;
    this.context = options.context ?? {};
  }

  /** The position (in the upload's order) of the file the error is about, if it names one. */
  get fileIndex(): number | null {
    const index = this.context.file_index;
    return typeof index === "number" && Number.isInteger(index) && index >= 0 ? index : null;
  }

  /** The locale key of the message to show. */
  get localeKey(): `errors.codes.${ErrorCode}` | FallbackErrorKey {
    return this.code ? errorLocaleKey(this.code) : this.fallbackKey;
  }
}

/** The JSON value of a response body, or null when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Status codes some proxies answer without our envelope, mapped to the matching code. */
const STATUS_CODES: Partial<Record<number, ErrorCode>> = {
  413: "FILE_TOO_LARGE",
  429: "RATE_LIMITED",
  503: "CONVERTER_UNAVAILABLE",
  504: "JOB_TIMEOUT",
};

/** Turns a non-ok response body into an ApiError, reading the contract's error envelope. */
export function errorFromResponse(status: number, bodyText: string, fallbackKey: FallbackErrorKey): ApiError {
  const envelope = errorEnvelopeSchema.safeParse(parseJson(bodyText));
  if (envelope.success) {
    return new ApiError({
      message: envelope.data.error.message,
      code: envelope.data.error.code,
      status,
      requestId: envelope.data.request_id ?? null,
      context: envelope.data.error.context,
      fallbackKey,
    });
  }
  const code = STATUS_CODES[status] ?? null;
  return new ApiError({ message: `HTTP ${status}`, code, status, fallbackKey });
}

/** Reads a code from an error body a task reports (FAILURE state). */
export function codeOf(value: unknown): ErrorCode | null {
  const parsed = errorCodeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Any thrown value as an ApiError (unknown failures become the generic message). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError({ message, fallbackKey: "errors.unexpected" });
}
