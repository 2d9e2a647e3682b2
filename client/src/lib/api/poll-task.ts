import {
  POLLING,
  STATUS_MAX_WAIT_SECONDS,
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
  /** Every new status (state or progress changed) while the task runs. */
  onProgress?: (status: TaskStatus) => void;
}

export interface PollOptions {
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  backoffFactor?: number;
  /** Seconds the server may hold a status request open waiting for a change. */
  waitSeconds?: number;
}

/** Answers a proxy or a busy edge gives for a moment: the next check may well succeed. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
/** Transient failures in a row tolerated before "Failed to check task status". */
export const MAX_TRANSIENT_FAILURES = 5;
/** An unchanged answer this close to the wait's end means the server did wait. */
const WAITED_FRACTION = 0.8;

type StatusAnswer = { ok: true; status: TaskStatus } | { ok: false; error: ApiError; transient: boolean };

function checkFailed(): ApiError {
  return new ApiError({ message: "Failed to check task status", fallbackKey: "errors.statusCheckFailed" });
}

async function fetchStatus(url: string, signal: AbortSignal): Promise<StatusAnswer | null /* aborted */> {
  let response: Response;
  try {
    response = await fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json" },
      signal,
    });
  } catch {
    return signal.aborted ? null : { ok: false, error: checkFailed(), transient: true };
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    return signal.aborted ? null : { ok: false, error: checkFailed(), transient: true };
  }
  if (!response.ok) {
    const error = errorFromResponse(response.status, text, "errors.statusCheckFailed");
    return { ok: false, error, transient: TRANSIENT_STATUSES.has(response.status) };
  }
  const parsed = taskStatusSchema.safeParse(parseJson(text));
  return parsed.success
    ? { ok: true, status: parsed.data }
    : { ok: false, error: checkFailed(), transient: false };
}

/**
 * Polls a task (spec §4): the first check is immediate; each later check asks the server to answer
 * at the task's next change (`since` = the last revision seen, `wait` seconds at most), so progress
 * and the end show the moment they happen. When the server answers early without a change, or a
 * check fails transiently, the next one follows the spec's schedule instead: 3000 ms growing ×1.5
 * up to 8000 ms (contract POLLING, overridable). SUCCESS calls onSuccess with the result; FAILURE
 * calls onError with the task's error (or "Task failed"); a failed status request calls onError
 * with "Failed to check task status". Any other state keeps polling. Returns a function that stops.
 */
export function pollTask(taskId: string, type: TaskType, handlers: PollHandlers, options: PollOptions = {}) {
  const maxInterval = options.maxIntervalMs ?? POLLING.maxIntervalMs;
  const factor = options.backoffFactor ?? POLLING.backoffFactor;
  const waitSeconds = options.waitSeconds ?? STATUS_MAX_WAIT_SECONDS;
  let interval = options.initialIntervalMs ?? POLLING.initialIntervalMs;
  let since: number | undefined;
  let failures = 0;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (delayMs: number) => {
    timer = setTimeout(check, delayMs);
  };
  const fallBack = () => {
    schedule(interval);
    interval = Math.min(interval * factor, maxInterval);
  };

  const check = async () => {
    const base = statusPath(type, taskId);
    const url = since === undefined ? base : `${base}?since=${since}&wait=${waitSeconds}`;
    const started = Date.now();
    const answer = await fetchStatus(url, controller.signal);
    if (answer === null || controller.signal.aborted) return;
    if (!answer.ok) {
      failures += 1;
      if (answer.transient && failures <= MAX_TRANSIENT_FAILURES) fallBack();
      else handlers.onError(answer.error);
      return;
    }
    failures = 0;
    const status = answer.status;
    if (status.state === "SUCCESS") {
      if (status.result) handlers.onSuccess(status.result, status);
      else handlers.onError(new ApiError({ message: "Task failed", fallbackKey: "errors.taskFailed" }));
      return;
    }
    if (status.state === "FAILURE") {
      handlers.onError(
        new ApiError({
          message: status.error || "Task failed",
          code: status.error_code,
          context: status.error_context ?? undefined,
          fallbackKey: "errors.taskFailed",
        }),
      );
      return;
    }
    const changed = status.revision !== since;
    const waited = Date.now() - started >= waitSeconds * 1000 * WAITED_FRACTION;
    since = status.revision;
    if (changed) handlers.onProgress?.(status);
    if (changed || waited) schedule(0);
    else fallBack();
  };

  void check();
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}
