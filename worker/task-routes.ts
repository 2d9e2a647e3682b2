import type { Context, Handler } from "hono";
import {
  AppError,
  deleteTaskResponseSchema,
  FILE_KINDS,
  type TaskType,
  TOOLS,
  taskStatusSchema,
} from "../contract/index.ts";
import type { AppEnv, Env } from "./env.ts";
import { contentDisposition } from "./file-names.ts";
import { isTaskId } from "./task-id.ts";
import { taskStub } from "./task-object.ts";
import { type TaskRecord, toTaskStatus } from "./task-record.ts";

/** The task behind a path, if it exists, has not expired and belongs to the path's task type. */
async function findTask(c: Context<AppEnv>, type: TaskType): Promise<TaskRecord> {
  const taskId = c.req.param("taskId") ?? "";
  const record = isTaskId(taskId) ? await taskStub(c.env, taskId).snapshot() : null;
  if (record === null || TOOLS[record.tool].taskType !== type) {
    throw new AppError("TASK_NOT_FOUND", "No such task (it may have expired)");
  }
  return record;
}

/** Streams result file `index` of a finished task from R2. */
export async function resultResponse(env: Env, record: TaskRecord, index: number): Promise<Response> {
  if (record.state !== "SUCCESS") {
    throw new AppError("TASK_NOT_READY", "The task has no result", { state: record.state });
  }
  const output = record.outputs[index];
  const object = output === undefined ? null : await env.FILES.get(output.key);
  if (output === undefined || object === null) throw new AppError("TASK_NOT_FOUND", "No such result file");
  return new Response(object.body, {
    headers: {
      "Content-Type": FILE_KINDS[output.kind].mime,
      "Content-Length": String(object.size),
      "Content-Disposition": contentDisposition(output.filename),
    },
  });
}

export function statusRoute(type: TaskType): Handler<AppEnv> {
  return async (c) => c.json(taskStatusSchema.parse(toTaskStatus(await findTask(c, type))));
}

/** GET download: `?file=N` picks one result of several (default the first). */
export function downloadRoute(type: TaskType): Handler<AppEnv> {
  return async (c) => {
    const file = c.req.query("file") ?? "0";
    if (!/^\d{1,4}$/.test(file)) throw new AppError("BAD_REQUEST", "file must be a result number");
    return resultResponse(c.env, await findTask(c, type), Number(file));
  };
}

/** DELETE: the task's files and state are deleted now. */
export function deleteRoute(type: TaskType): Handler<AppEnv> {
  return async (c) => {
    const record = await findTask(c, type);
    await taskStub(c.env, record.id).remove();
    return c.json(deleteTaskResponseSchema.parse({ deleted: true }));
  };
}
