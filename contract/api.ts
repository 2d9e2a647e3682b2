import { z } from "zod";
import { errorBodySchema, errorCodeSchema } from "./errors.ts";
import { TOOL_FOLDER_IDS } from "./generated/tool-ids.ts";

/**
 * Task ids are 128 random bits (22 base64url characters) followed by a 96-bit tag (16 characters),
 * a truncated HMAC-SHA256 of the random part under a key only the Worker holds, so a made-up or
 * altered id is refused without asking any Durable Object.
 */
export const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{38}$/;
export const taskIdSchema = z.string().regex(TASK_ID_PATTERN);

export const toolIdSchema = z.enum(TOOL_FOLDER_IDS);
export const taskTypeSchema = z.enum(["pdf", "image"]);

/**
 * QUEUED: the converter is busy or unreachable and the task waits to retry. Any state other than
 * SUCCESS or FAILURE means the task goes on (spec §4).
 */
export const TASK_STATES = ["PENDING", "QUEUED", "STARTED", "PROGRESS", "SUCCESS", "FAILURE"] as const;
export const taskStateSchema = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof taskStateSchema>;

export const csrfTokenResponseSchema = z.object({ csrf_token: z.string() });
export const CSRF_HEADER = "X-CSRF-Token";
export const CSRF_COOKIE = "csrf_token";

export const taskStartResponseSchema = z.object({ task_id: taskIdSchema });
export type TaskStartResponse = z.infer<typeof taskStartResponseSchema>;

export const resultFileSchema = z.object({
  download_url: z.string(),
  filename: z.string(),
  size: z.number().int().nonnegative(),
});

export const taskResultSchema = z.object({
  download_url: z.string(),
  original_filename: z.string(),
  /** Name the download is saved under. */
  filename: z.string(),
  original_size: z.number().int().nonnegative(),
  new_size: z.number().int().nonnegative(),
  /** Positive when the output is smaller than the input, rounded to one decimal. */
  size_reduction_percent: z.number(),
  /** Facts the engine measured (pages, pixel size…). */
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  /** Present when the task produced several files. */
  files: z.array(resultFileSchema).optional(),
});
export type TaskResult = z.infer<typeof taskResultSchema>;

export const taskStatusSchema = z.object({
  task_id: taskIdSchema,
  tool: toolIdSchema,
  state: taskStateSchema,
  /** 0–100. */
  progress: z.number().min(0).max(100),
  /** Grows on every change of state or progress; `since` of the next status request. */
  revision: z.number().int().nonnegative(),
  result: taskResultSchema.nullable(),
  /** Why the task failed, as text (spec §3: a client written to the spec shows it). */
  error: z.string().nullable(),
  /** The failure's code and context, for clients that show their own translated text. */
  error_code: errorCodeSchema.nullable(),
  error_context: errorBodySchema.shape.context.unwrap().nullable(),
  /** ISO time after which the task and its files are deleted. */
  expires_at: z.string(),
});
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const validatePdfResponseSchema = z.object({
  total_pages: z.number().int().nonnegative(),
  /** The PDF was damaged and opened only after repair: tools work on the repaired document. */
  repaired: z.boolean(),
});
export type ValidatePdfResponse = z.infer<typeof validatePdfResponseSchema>;
export const deleteTaskResponseSchema = z.object({ deleted: z.literal(true) });

/** Longest wait of one status request; a longer `wait` is cut to this. */
export const STATUS_MAX_WAIT_SECONDS = 25;

/**
 * Query of `GET /api/{type}/status/{id}`: with `since` (a revision the client has seen) the answer
 * comes as soon as the task's revision differs from it, or after `wait` seconds (default and cap
 * STATUS_MAX_WAIT_SECONDS) with the unchanged status. Without `since` the answer is immediate.
 */
export const statusQuerySchema = z.object({
  wait: z.coerce.number().min(0).max(3600).optional(),
  since: z.coerce.number().int().nonnegative().optional(),
});
export type StatusQuery = z.infer<typeof statusQuerySchema>;

/** Path parameters of a task's routes (status, download, delete). */
export const taskIdParamsSchema = z.object({ taskId: z.string() });
/** Query of a download: `file` picks one result of several (0-based, default the first). */
export const downloadQuerySchema = z.object({ file: z.coerce.number().int().min(0).max(9999).optional() });

/** Client polling (spec §9): first check immediate, then 3000 ms growing ×1.5 up to 8000 ms. */
export const POLLING = { initialIntervalMs: 3000, maxIntervalMs: 8000, backoffFactor: 1.5 } as const;

/**
 * The converter's job runners: busy, idle, being started, and replaced since it started (for any
 * reason: a limit, a crash, memory kept after a job); `wedged` counts those replaced for not
 * answering during a job (or found stopped by a signal).
 */
export const runnerCountsSchema = z.object({
  busy: z.number().int(),
  idle: z.number().int(),
  starting: z.number().int(),
  replaced: z.number().int(),
  wedged: z.number().int(),
});
export type RunnerCounts = z.infer<typeof runnerCountsSchema>;

/** `GET /api/health`: the Worker answers, and the converter with its load (503 when it does not). */
export const HEALTH_PATH = "/api/health";
export const healthStatusSchema = z.object({
  ok: z.boolean(),
  converter: z.object({
    ok: z.boolean(),
    running: z.number().int().optional(),
    capacity: z.number().int().optional(),
    runners: runnerCountsSchema.optional(),
  }),
});
export type HealthStatus = z.infer<typeof healthStatusSchema>;
