/** A task record as a running task object holds it, its one input stored in the test's R2 bucket. */
import { env } from "cloudflare:test";
import type { AvailableToolId, FileKind } from "../../contract/index.ts";
import { inputKey } from "../../worker/task-files.ts";
import { newTaskId } from "../../worker/task-id.ts";
import type { TaskRecord } from "../../worker/task-record.ts";

export async function runningTask(
  bytes: Uint8Array,
  input: { tool: AvailableToolId; options: TaskRecord["options"]; name: string; kind: FileKind },
): Promise<TaskRecord> {
  const id = await newTaskId(env.CSRF_SECRET);
  await env.FILES.put(inputKey(id, 0), bytes);
  const now = Date.now();
  return {
    id,
    tool: input.tool,
    options: input.options,
    inputs: [{ key: inputKey(id, 0), name: input.name, size: bytes.length, kind: input.kind }],
    createdAt: now,
    expiresAt: now + 60_000,
    state: "PROGRESS",
    progress: 0,
    revision: 1,
    attempts: 1,
    queuedRetries: 0,
    interruptions: 0,
    running: true,
    outputs: [],
    facts: {},
    error: null,
  };
}
