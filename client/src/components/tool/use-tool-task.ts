import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { freeConversionsUsedUpToday } from "../../config/free-conversions";
import { type ApiError, toApiError } from "../../lib/api/api-error";
import { deleteTask } from "../../lib/api/delete-task";
import { pollTask } from "../../lib/api/poll-task";
import { startTask, type TaskTool } from "../../lib/api/start-task";
import type { TaskResult } from "../../lib/contract";
import { recordConversion } from "../../lib/free-conversions/free-conversions";
import { awaitFreeToolAccess } from "../../lib/free-conversions/free-tool-access";
import { showApiError } from "../../lib/show-error";
import { showToast } from "../../lib/toast-store";

/**
 * Where a tool's task is: upload with real percentage, processing with the task's progress (queued
 * while the server waits for a free converter), result.
 */
export type TaskPhase =
  | { name: "idle" }
  | { name: "uploading"; percent: number }
  | { name: "processing"; percent: number; queued: boolean }
  | { name: "done"; taskId: string; result: TaskResult; expiresAt: string; deleting: boolean };

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/**
 * Runs one task of a tool outside React: upload (with CSRF) with its percentage, then polling until
 * SUCCESS or FAILURE. Every change of phase goes to `onPhase`; a failure goes to `onError` (nothing
 * after a stop). A success counts as one conversion for the Free Tool Access notice. Returns a
 * function that stops the upload or the polling.
 */
export function runTask(
  tool: TaskTool,
  files: readonly File[],
  fields: Readonly<Record<string, string>>,
  handlers: { onPhase: (phase: TaskPhase) => void; onError: (error: ApiError) => void },
  extraFiles: Readonly<Record<string, File>> = {},
): () => void {
  const controller = new AbortController();
  let stopPolling: (() => void) | null = null;
  const { onPhase, onError } = handlers;
  void (async () => {
    onPhase({ name: "uploading", percent: 0 });
    let taskId: string;
    try {
      taskId = await startTask(tool, files, fields, {
        signal: controller.signal,
        extraFiles,
        onUploadProgress: (percent) => onPhase({ name: "uploading", percent }),
      });
    } catch (error) {
      if (isAbort(error) || controller.signal.aborted) return;
      onError(toApiError(error));
      return;
    }
    if (controller.signal.aborted) return;
    onPhase({ name: "processing", percent: 0, queued: false });
    stopPolling = pollTask(taskId, tool.category, {
      onProgress: (status) =>
        onPhase({
          name: "processing",
          percent: Math.round(status.progress),
          queued: status.state === "QUEUED",
        }),
      onSuccess: (result, status) => {
        recordConversion();
        onPhase({ name: "done", taskId, result, expiresAt: status.expires_at, deleting: false });
      },
      onError,
    });
  })();
  return () => {
    controller.abort();
    stopPolling?.();
  };
}

/**
 * Runs one task of a tool: first the Free Tool Access gate, then upload (with CSRF), poll until SUCCESS
 * or FAILURE, keep the result, delete it on request. Busy always ends on error; the error goes to `onError` to be shown.
 */
export function useToolTask(tool: TaskTool, onError: (error: ApiError) => void) {
  const { t } = useTranslation();
  const taskType = tool.category;
  const [phase, setPhase] = useState<TaskPhase>({ name: "idle" });
  const stop = useRef<(() => void) | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const cancel = useCallback(() => {
    stop.current?.();
    stop.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);

  const run = useCallback(
    async (
      files: readonly File[],
      fields: Readonly<Record<string, string>> = {},
      extraFiles: Readonly<Record<string, File>> = {},
    ) => {
      cancel();
      if (!(await awaitFreeToolAccess(freeConversionsUsedUpToday))) return;
      stop.current = runTask(
        tool,
        files,
        fields,
        {
          onPhase: setPhase,
          onError: (error) => {
            setPhase({ name: "idle" });
            onErrorRef.current(error);
          },
        },
        extraFiles,
      );
    },
    [cancel, tool],
  );

  const reset = useCallback(() => {
    cancel();
    setPhase({ name: "idle" });
  }, [cancel]);

  /** Deletes the task's files on the server; resolves true when they are gone. */
  const deleteNow = useCallback(async (): Promise<boolean> => {
    if (phase.name !== "done" || phase.deleting) return false;
    setPhase({ ...phase, deleting: true });
    try {
      await deleteTask(phase.taskId, taskType);
    } catch (error) {
      const apiError = toApiError(error);
      // Already gone (expired or deleted elsewhere): the goal is reached.
      if (apiError.code !== "TASK_NOT_FOUND") {
        setPhase({ ...phase, deleting: false });
        showApiError(t, t("result.deleteFailed"), apiError);
        return false;
      }
    }
    setPhase({ name: "idle" });
    showToast({ title: t("result.deleted"), description: t("result.deletedDescription") });
    return true;
  }, [phase, taskType, t]);

  const busy = phase.name === "uploading" || phase.name === "processing";
  return { phase, busy, run, reset, deleteNow };
}

/** Opens a result's download (same-origin addresses only). */
export function downloadResult(result: TaskResult) {
  const url = new URL(result.download_url, window.location.origin);
  if (url.origin === window.location.origin) window.location.assign(url.href);
}

/**
 * What a finished task gives its ResultPanel: when its files expire, whether they are being
 * deleted, download, and delete now (then `onDeleted`, e.g. to forget the chosen files).
 */
export function finishedTaskActions(
  task: { deleteNow: () => Promise<boolean> },
  phase: Extract<TaskPhase, { name: "done" }>,
  onDeleted: () => void,
) {
  return {
    expiresAt: phase.expiresAt,
    deleting: phase.deleting,
    onDownload: () => downloadResult(phase.result),
    onDelete: () => void task.deleteNow().then((deleted) => deleted && onDeleted()),
  };
}
