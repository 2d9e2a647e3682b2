import type { Context, Handler } from "hono";
import {
  AppError,
  declarationOf,
  parseToolOptions,
  STATUS_MAX_WAIT_SECONDS,
  secretOptionNames,
  TOOLS,
  type ToolId,
  taskStartResponseSchema,
} from "../contract/index.ts";
import { Slots } from "./edge-slots.ts";
import type { AppEnv } from "./env.ts";
import { countTaskCreation } from "./rate-limit.ts";
import { newTaskId } from "./task-id.ts";
import { taskStub } from "./task-object.ts";
import { resultResponse } from "./task-routes.ts";
import {
  checkExtrasFit,
  checkInputsFit,
  isAvailable,
  requireAvailable,
  resolveTool,
  toolsAtPath,
  unresolvedToolError,
  uploadPlanFor,
} from "./tool-resolution.ts";
import { r2Sink, receiveUpload, type StoredInput } from "./upload.ts";

/**
 * The older blob style (spec §7), as the tool declares it: the Worker waits for the task and
 * answers the output bytes instead of a task id.
 */
export function answersWithBlob(tool: ToolId, query: Record<string, string>): boolean {
  const { blob } = declarationOf(tool).endpoint;
  return blob === "always" || (blob !== undefined && query[blob.whenQuery] !== undefined);
}

/** How long a blob-style request waits for its task. */
const BLOB_WAIT_MS = 10 * 60_000;

async function waitForResult(c: Context<AppEnv>, taskId: string): Promise<Response> {
  const stub = taskStub(c.env, taskId);
  const deadline = Date.now() + BLOB_WAIT_MS;
  // Each call returns as soon as the task changes (or after the longest status wait).
  for (let since: number | undefined; ; ) {
    const record = await stub.watch(since, STATUS_MAX_WAIT_SECONDS * 1000);
    if (record === null) throw new AppError("TASK_NOT_FOUND", "The task is gone");
    if (record.state === "SUCCESS") {
      const response = await resultResponse(c.env, record, 0);
      response.headers.set("X-Task-Id", taskId);
      return response;
    }
    if (record.state === "FAILURE" && record.error !== null) {
      throw new AppError(record.error.code, record.error.message, record.error.context);
    }
    if (Date.now() > deadline) throw new AppError("JOB_TIMEOUT", "The conversion took too long");
    since = record.revision;
  }
}

/** Resolves the tool, checks the inputs and options, and hands the task to its task object. */
async function createTask(
  env: AppEnv["Bindings"],
  path: string,
  taskId: string,
  query: Record<string, string>,
  fields: Record<string, string>,
  inputs: readonly StoredInput[],
  extras: readonly StoredInput[],
): Promise<ToolId> {
  const tool = resolveTool(path, fields, inputs[0]?.kind ?? null);
  if (tool === null) throw unresolvedToolError(path, fields);
  // A password in the query string would sit in URLs (logs, history): only the form body carries one.
  const secretInQuery = secretOptionNames(TOOLS[tool].options).find((name) => name in query);
  if (secretInQuery !== undefined) {
    throw new AppError("INVALID_OPTIONS", "Passwords go in the form body, never in the URL", {
      field: secretInQuery,
    });
  }
  if (!isAvailable(tool))
    throw new AppError("TOOL_NOT_AVAILABLE", "This tool is not available yet", { tool });
  checkInputsFit(tool, inputs);
  checkExtrasFit(tool, extras);
  const options = parseToolOptions(tool, fields);
  if (!options.success) throw new AppError("INVALID_OPTIONS", "Invalid options", { issues: options.issues });
  await taskStub(env, taskId).create({
    id: taskId,
    tool,
    options: options.data,
    inputs,
    ...(extras.length > 0 ? { extras } : {}),
  });
  return tool;
}

/**
 * POST handler of a tool path: availability and the client's rate limit (before the body: a client
 * over its limit writes nothing to R2; every request counts, refused or not), streamed upload into
 * R2, tool resolution and option validation, then the task object takes over. 202 `{task_id}`.
 */
/**
 * Uploads one isolate streams into R2 at once; the others wait here, their bodies unread. Under
 * `wrangler dev`, 32 or 64 concurrent 3.4 MB merges saturated the Worker's runtime until wrangler's
 * proxy lost its connections to it (a plain-text 500 "Network connection lost" for every upload in
 * flight, bench:load); 16 at once never did.
 */
export const UPLOAD_CONCURRENCY = 8;
export const uploadSlots = new Slots(UPLOAD_CONCURRENCY);

export function startTaskRoute(path: string): Handler<AppEnv> {
  return async (c) => {
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const known = resolveTool(path, query, null);
    const candidates: ToolId[] = known === null ? toolsAtPath(path) : [known];
    requireAvailable(candidates);
    await countTaskCreation(c);

    const taskId = await newTaskId(c.env.CSRF_SECRET);
    const sink = r2Sink(c.env.FILES, taskId);
    const release = await uploadSlots.acquire();
    const upload = await receiveUpload(c.req.raw, uploadPlanFor(candidates), sink).finally(release);
    const tool = await createTask(
      c.env,
      path,
      taskId,
      query,
      { ...query, ...upload.fields },
      upload.files,
      upload.extras,
    ).catch(async (error: unknown) => {
      await sink.discard([...upload.files, ...upload.extras]);
      throw error;
    });
    if (answersWithBlob(tool, query)) return waitForResult(c, taskId);
    return c.json(taskStartResponseSchema.parse({ task_id: taskId }), 202);
  };
}
