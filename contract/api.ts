import { z } from "zod";
import { errorBodySchema } from "./errors.ts";
import { TOOL_IDS, type ToolId } from "./tools.ts";

/** Task ids carry 128 random bits, base64url without padding (22 characters). */
export const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const taskIdSchema = z.string().regex(TASK_ID_PATTERN);

export const toolIdSchema = z.enum(TOOL_IDS as [ToolId, ...ToolId[]]);
export const taskTypeSchema = z.enum(["pdf", "image"]);

export const TASK_STATES = ["PENDING", "STARTED", "PROGRESS", "SUCCESS", "FAILURE"] as const;
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
  result: taskResultSchema.nullable(),
  error: errorBodySchema.nullable(),
  /** ISO time after which the task and its files are deleted. */
  expires_at: z.string(),
});
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const validatePdfResponseSchema = z.object({ total_pages: z.number().int().nonnegative() });
export const deleteTaskResponseSchema = z.object({ deleted: z.literal(true) });

/** Client polling (spec §9): first check immediate, then 3000 ms growing ×1.5 up to 8000 ms. */
export const POLLING = { initialIntervalMs: 3000, maxIntervalMs: 8000, backoffFactor: 1.5 } as const;

/** Default time after which a task's files and state are deleted. */
export const DEFAULT_RETENTION_MINUTES = 60;
