import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { runTask, type TaskPhase } from "../../components/tool/use-tool-task";
import { freeConversionsUsedUpToday } from "../../config/free-conversions";
import type { ApiError } from "../../lib/api/api-error";
import { deleteTask } from "../../lib/api/delete-task";
import { TOOLS, type ToolId } from "../../lib/contract";
import { awaitFreeToolAccess } from "../../lib/free-conversions/free-tool-access";
import { apiErrorMessage, showErrorMessage } from "../../lib/show-error";

/** One image of a batch and where its own task is. */
export type BatchState = { name: "ready" } | TaskPhase | { name: "failed"; message: string };
export interface BatchItem {
  readonly id: string;
  readonly file: File;
  readonly state: BatchState;
}
export type DoneItem = BatchItem & { readonly state: Extract<TaskPhase, { name: "done" }> };

/** Tasks that run at once: uploads and conversions overlap without flooding the converter. */
const PARALLEL_TASKS = 2;

export function isDone(item: BatchItem): item is DoneItem {
  return item.state.name === "done";
}

function isRunning(item: BatchItem): boolean {
  return item.state.name === "uploading" || item.state.name === "processing";
}

/**
 * A batch of images, each converted by its own task (the API takes one image per task): files are
 * added and removed while nothing runs; `runAll` starts every file not yet done, a few at a time.
 * A failed file keeps its translated cause in the list (and in a toast naming it) while the others
 * go on.
 */
export function useBatchTasks(toolId: ToolId) {
  const { t } = useTranslation();
  const [items, setItems] = useState<readonly BatchItem[]>([]);
  const stops = useRef(new Map<string, () => void>());
  const nextId = useRef(0);

  const stopAll = useCallback(() => {
    for (const stop of stops.current.values()) stop();
    stops.current.clear();
  }, []);
  useEffect(() => stopAll, [stopAll]);

  const update = useCallback((id: string, state: BatchState) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, state } : item)));
  }, []);

  const add = useCallback((files: readonly File[]) => {
    const added = files.map((file) => ({
      id: `image-${nextId.current++}`,
      file,
      state: { name: "ready" } as const,
    }));
    setItems((current) => [...current, ...added]);
  }, []);

  const remove = useCallback((id: string) => {
    stops.current.get(id)?.();
    stops.current.delete(id);
    setItems((current) => current.filter((item) => item.id !== id));
  }, []);

  const clear = useCallback(() => {
    stopAll();
    setItems([]);
  }, [stopAll]);

  /** One file's task; resolves when it has finished either way. */
  const runOne = useCallback(
    (item: BatchItem, fields: Readonly<Record<string, string>>) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          stops.current.delete(item.id);
          resolve();
        };
        const fail = (error: ApiError) => {
          const message = apiErrorMessage(t, error);
          update(item.id, { name: "failed", message });
          showErrorMessage(t, t("errors.fileProblem", { name: item.file.name, message }));
          finish();
        };
        const stop = runTask(TOOLS[toolId], [item.file], fields, {
          onPhase: (phase) => {
            update(item.id, phase);
            if (phase.name === "done") finish();
          },
          onError: fail,
        });
        stops.current.set(item.id, () => {
          stop();
          resolve();
        });
      }),
    [t, toolId, update],
  );

  const runAll = useCallback(
    async (fieldsFor: (file: File) => Readonly<Record<string, string>>) => {
      // One start of the tool passes the Free Tool Access gate once, however many files it holds.
      if (!(await awaitFreeToolAccess(freeConversionsUsedUpToday))) return;
      const queue = items.filter((item) => !isDone(item));
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) await runOne(item, fieldsFor(item.file));
      };
      await Promise.all(Array.from({ length: PARALLEL_TASKS }, worker));
    },
    [items, runOne],
  );

  /** Deletes every finished task's files on the server; resolves true when all are gone. */
  const deleteAll = useCallback(async (): Promise<boolean> => {
    const done = items.filter(isDone);
    const results = await Promise.allSettled(
      done.map((item) => deleteTask(item.state.taskId, TOOLS[toolId].taskType)),
    );
    const failed = results.filter(
      (result) => result.status === "rejected" && (result.reason as ApiError).code !== "TASK_NOT_FOUND",
    );
    if (failed.length > 0) {
      showErrorMessage(t, t("result.deleteFailed"));
      return false;
    }
    return true;
  }, [items, t, toolId]);

  const busy = items.some(isRunning);
  const done = items.filter(isDone);
  /** Every file has run and at least one gave a result. */
  const finished =
    !busy &&
    done.length > 0 &&
    items.every((item) => item.state.name === "done" || item.state.name === "failed");
  return { items, done, busy, finished, add, remove, clear, runAll, deleteAll };
}
