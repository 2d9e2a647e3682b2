import { z } from "zod";

/**
 * The one error table shared by every layer: code → HTTP status, whether a retry may help,
 * and the locale key (namespace common) holding the user-facing message.
 */
const table = {
  BAD_REQUEST: { status: 400, transient: false },
  NO_FILE: { status: 400, transient: false },
  TOO_MANY_FILES: { status: 413, transient: false },
  FILE_TOO_LARGE: { status: 413, transient: false },
  UNSUPPORTED_FILE_TYPE: { status: 415, transient: false },
  INVALID_OPTIONS: { status: 400, transient: false },
  UNAUTHORIZED: { status: 401, transient: false },
  CSRF_INVALID: { status: 403, transient: false },
  ORIGIN_FORBIDDEN: { status: 403, transient: false },
  RATE_LIMITED: { status: 429, transient: false },
  TOOL_NOT_AVAILABLE: { status: 501, transient: false },
  NOT_FOUND: { status: 404, transient: false },
  TASK_NOT_FOUND: { status: 404, transient: false },
  TASK_NOT_READY: { status: 409, transient: false },
  PDF_ENCRYPTED: { status: 422, transient: false },
  PDF_WRONG_PASSWORD: { status: 422, transient: false },
  PDF_NOT_ENCRYPTED: { status: 422, transient: false },
  PDF_DAMAGED: { status: 422, transient: false },
  PDF_NO_PAGES: { status: 422, transient: false },
  TOO_MANY_PAGES: { status: 422, transient: false },
  OUTPUT_TOO_LARGE: { status: 422, transient: false },
  PDF_NO_IMAGES: { status: 422, transient: false },
  PDF_NO_TEXT: { status: 422, transient: false },
  IMAGE_DAMAGED: { status: 422, transient: false },
  IMAGE_TOO_LARGE: { status: 422, transient: false },
  CONVERTER_UNAVAILABLE: { status: 503, transient: true },
  CONVERTER_BUSY: { status: 503, transient: true },
  JOB_TIMEOUT: { status: 504, transient: false },
  JOB_OUT_OF_MEMORY: { status: 507, transient: false },
  JOB_INTERRUPTED: { status: 500, transient: false },
  INTERNAL: { status: 500, transient: false },
} as const satisfies Record<string, { status: number; transient: boolean }>;

export type ErrorCode = keyof typeof table;
export const ERROR_CODES = Object.keys(table) as ErrorCode[];

export function errorStatus(code: ErrorCode): number {
  return table[code].status;
}

export function isTransient(code: ErrorCode): boolean {
  return table[code].transient;
}

/** Locale key of an error code, e.g. PDF_ENCRYPTED → errors.codes.PDF_ENCRYPTED. */
export function errorLocaleKey(code: ErrorCode): `errors.codes.${ErrorCode}` {
  return `errors.codes.${code}`;
}

export const errorCodeSchema = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

/** Errors travel between layers as data, never as strings to parse. */
export const errorBodySchema = z.object({
  code: errorCodeSchema,
  /** English developer-facing text; the UI shows the translation of `code`. */
  message: z.string(),
  context: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const errorEnvelopeSchema = z.object({
  error: errorBodySchema,
  request_id: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** An error any layer can throw; HTTP layers turn it into the envelope with `errorStatus(code)`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorBody["context"];
  /** Text for the log line only (an engine's own message): never part of `toBody()`. */
  readonly detail: string | undefined;

  constructor(code: ErrorCode, message: string, context?: ErrorBody["context"], detail?: string) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.context = context;
    this.detail = detail;
  }

  toBody(): ErrorBody {
    return this.context === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, context: this.context };
  }
}
