import type { TaskType } from "./tool-kit.ts";

/**
 * API paths that are not one tool's own, shared by the Worker's routes, the client and the OpenAPI
 * document. Tools declare their start path in their folder; two spec paths serve several tools.
 */
export const API_PATHS = {
  csrfToken: "/api/pdf/csrf-token",
  openapi: "/api/openapi.json",
  validatePdf: "/api/pdf/validate-pdf",
  /** PDF conversions, told apart by `output_format` (spec §7). */
  pdfConvert: "/api/pdf/convert",
  /** Image conversion and compression, told apart by `target_format`, `quality` and the file (spec §7). */
  imageConvert: "/api/image/convert",
} as const;

export const statusPath = (type: TaskType, taskId: string) => `/api/${type}/status/${taskId}`;
/** GET downloads the result (`?file=N` picks one of several); DELETE removes the task at once. */
export const downloadPath = (type: TaskType, taskId: string) => `/api/${type}/download/${taskId}`;
export const taskPath = (type: TaskType, taskId: string) => `/api/${type}/task/${taskId}`;
