import type { Context, Handler } from "hono";
import {
  AppError,
  deleteTaskResponseSchema,
  downloadQuerySchema,
  FILE_KINDS,
  STATUS_MAX_WAIT_SECONDS,
  statusQuerySchema,
  type TaskType,
  TOOLS,
  taskIdParamsSchema,
  taskStatusSchema,
} from "../contract/index.ts";
import type { AppEnv, Env } from "./env.ts";
import { contentDisposition } from "./file-names.ts";
import { countTaskRead } from "./rate-limit.ts";
import { isTaskId } from "./task-id.ts";
import { taskStub } from "./task-object.ts";
import { type TaskRecord, toTaskStatus } from "./task-record.ts";

function notFound(): AppError {
  return new AppError("TASK_NOT_FOUND", "No such task (it may have expired)");
}

/**
 * The task behind a path, if it exists, has not expired and belongs to the path's task type. The
 * request is counted against the client's read limit, and an id this Worker did not issue is
 * refused before any Durable Object is asked. `since`/`waitMs` make the task object answer at the
 * next change (see TaskObject.watch).
 */
async function findTask(c: Context<AppEnv>, type: TaskType, since?: number, waitMs = 0): Promise<TaskRecord> {
  await countTaskRead(c);
  const taskId = taskIdParamsSchema.safeParse(c.req.param()).data?.taskId ?? "";
  if (!(await isTaskId(c.env.CSRF_SECRET, taskId))) throw notFound();
  const record = await taskStub(c.env, taskId).watch(since, waitMs);
  if (record === null || TOOLS[record.tool].taskType !== type) throw notFound();
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

/** GET status; `?since=<revision>&wait=<seconds>` waits for the next change (contract statusQuerySchema). */
export function statusRoute(type: TaskType): Handler<AppEnv> {
  return async (c) => {
    const query = statusQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new AppError("BAD_REQUEST", "wait must be seconds and since a revision number");
    }
    const waitSeconds = Math.min(query.data.wait ?? STATUS_MAX_WAIT_SECONDS, STATUS_MAX_WAIT_SECONDS);
    const record = await findTask(c, type, query.data.since, waitSeconds * 1000);
    return c.json(taskStatusSchema.parse(toTaskStatus(record)));
  };
}

/** GET download: `?file=N` picks one result of several (default the first; contract downloadQuerySchema). */
export function downloadRoute(type: TaskType): Handler<AppEnv> {
  return async (c) => {
    const query = downloadQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new AppError("BAD_REQUEST", "file must be a result number");
    return resultResponse(c.env, await findTask(c, type), query.data.file ?? 0);
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
