import {
  POLLING,
  statusPath,
  type TaskResult,
  type TaskStatus,
  type TaskType,
  taskStatusSchema,
} from "../contract";
import { ApiError, errorFromResponse, parseJson } from "./api-error";

export interface PollHandlers {
  onSuccess: (result: TaskResult, status: TaskStatus) => void;
  onError: (error: ApiError) => void;
  /** Every status received while the task runs. */
  onProgress?: (status: TaskStatus) => void;
}

export interface PollOptions {
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  backoffFactor?: number;
}

async function fetchStatus(taskId: string, type: TaskType, signal: AbortSignal): Promise<TaskStatus> {
  let response: Response;
  try {
    response = await fetch(statusPath(type, taskId), {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ApiError({ message: "Failed to check task status", fallbackKey: "errors.statusCheckFailed" });
  }
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, text, "errors.statusCheckFailed");
  const body = parseJson(text);
  const parsed = taskStatusSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError({ message: "Failed to check task status", fallbackKey: "errors.statusCheckFailed" });
  }
  return parsed.data;
}

/**
 * Polls a task (spec §4): the first check is immediate, then every 3000 ms growing ×1.5 up to
 * 8000 ms (contract POLLING, overridable). SUCCESS calls onSuccess with the result; FAILURE calls
 * onError with the task's error (or "Task failed"); a failed status request calls onError with
 * "Failed to check task status". Any other state keeps polling. Returns a function that stops polling.
 */
export function pollTask(taskId: string, type: TaskType, handlers: PollHandlers, options: PollOptions = {}) {
  const maxInterval = options.maxIntervalMs ?? POLLING.maxIntervalMs;
  const factor = options.backoffFactor ?? POLLING.backoffFactor;
  let interval = options.initialIntervalMs ?? POLLING.initialIntervalMs;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const check = async () => {
    let status: TaskStatus;
    try {
      status = await fetchStatus(taskId, type, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      handlers.onError(
        error instanceof ApiError
          ? error
          : new ApiError({ message: "Failed to check task status", fallbackKey: "errors.statusCheckFailed" }),
      );
      return;
    }
    if (controller.signal.aborted) return;
    if (status.state === "SUCCESS") {
      if (status.result) handlers.onSuccess(status.result, status);
      else handlers.onError(new ApiError({ message: "Task failed", fallbackKey: "errors.taskFailed" }));
      return;
    }
    if (status.state === "FAILURE") {
      handlers.onError(
        new ApiError({
          message: status.error?.message || "Task failed",
          code: status.error?.code ?? null,
          fallbackKey: "errors.taskFailed",
        }),
      );
      return;
    }
    handlers.onProgress?.(status);
    timer = setTimeout(check, interval);
    interval = Math.min(interval * factor, maxInterval);
  };

  void check();
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}
