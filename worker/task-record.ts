import {
  type AvailableToolId,
  downloadPath,
  type ErrorBody,
  type FileKind,
  type JobFacts,
  secretOptionNames,
  type TaskState,
  type TaskStatus,
  TOOLS,
  type ToolOptions,
} from "../contract/index.ts";
import type { StoredInput } from "./upload.ts";

/** A result file in R2. */
export interface TaskOutput {
  readonly key: string;
  readonly filename: string;
  readonly size: number;
  readonly kind: FileKind;
}

/** What the API hands the task object when a task starts. */
export interface NewTask {
  readonly id: string;
  readonly tool: AvailableToolId;
  /** Already validated by the tool's option schema. */
  readonly options: ToolOptions<AvailableToolId>;
  readonly inputs: readonly StoredInput[];
  /** Files of the tool's extra file fields (each names its field); deleted with the inputs. */
  readonly extras?: readonly StoredInput[];
}

/** The task object's stored state (one record per task object). */
export interface TaskRecord extends NewTask {
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly state: TaskState;
  readonly progress: number;
  /** Grows on every stored change; status waiters wake when it moves. */
  readonly revision: number;
  /** Runs started so far (first run included). */
  readonly attempts: number;
  /** Retries after the converter was busy or unreachable (sets the backoff). */
  readonly queuedRetries: number;
  /** Runs that ended interrupted (runner killed, or this object restarted mid-run). */
  readonly interruptions: number;
  /** True while a run is under way; found true by a later alarm, it means the run was interrupted. */
  readonly running: boolean;
  readonly outputs: readonly TaskOutput[];
  readonly facts: JobFacts;
  readonly error: ErrorBody | null;
}

/** Storage key of the record in the task object's storage. */
export const TASK_RECORD_KEY = "task";
/**
 * Storage key of the task's secret options (passwords), kept apart from the record: the record
 * lives until the task expires, the secrets only until its job ends (see TaskObject#finish).
 */
export const TASK_SECRETS_KEY = "secrets";

/** A task's options split into those the record may keep and its secrets (tool-kit `password` options). */
export function splitSecrets(task: NewTask): { task: NewTask; secrets: Record<string, unknown> | null } {
  const names = secretOptionNames(TOOLS[task.tool].options);
  const options: Record<string, unknown> = { ...task.options };
  const secrets: Record<string, unknown> = {};
  for (const name of names) {
    if (options[name] !== undefined) secrets[name] = options[name];
    delete options[name];
  }
  if (Object.keys(secrets).length === 0) return { task, secrets: null };
  return { task: { ...task, options: options as NewTask["options"] }, secrets };
}

/** Progress reported at the real stages of a job. */
export const JOB_PROGRESS = {
  started: 5,
  inputsReady: 15,
  converting: 25,
  converted: 90,
  done: 100,
} as const;

export function isFinished(state: TaskState): boolean {
  return state === "SUCCESS" || state === "FAILURE";
}

/** Positive when the output is smaller, one decimal. */
export function sizeReductionPercent(originalSize: number, newSize: number): number {
  if (originalSize === 0) return 0;
  return Math.round(((originalSize - newSize) / originalSize) * 1000) / 10;
}

function fileUrl(record: TaskRecord, index: number): string {
  const base = downloadPath(TOOLS[record.tool].taskType, record.id);
  return record.outputs.length > 1 ? `${base}?file=${index}` : base;
}

/** The contract's status shape of a task. */
export function toTaskStatus(record: TaskRecord): TaskStatus {
  const first = record.outputs[0];
  const originalSize = record.inputs.reduce((sum, input) => sum + input.size, 0);
  const newSize = record.outputs.reduce((sum, output) => sum + output.size, 0);
  const result =
    record.state === "SUCCESS" && first !== undefined
      ? {
          download_url: downloadPath(TOOLS[record.tool].taskType, record.id),
          original_filename: record.inputs[0]?.name ?? "",
          filename: first.filename,
          original_size: originalSize,
          new_size: newSize,
          size_reduction_percent: sizeReductionPercent(originalSize, newSize),
          facts: record.facts,
          ...(record.outputs.length > 1
            ? {
                files: record.outputs.map((output, index) => ({
                  download_url: fileUrl(record, index),
                  filename: output.filename,
                  size: output.size,
                })),
              }
            : {}),
        }
      : null;
  return {
    task_id: record.id,
    tool: record.tool,
    state: record.state,
    progress: record.progress,
    revision: record.revision,
    result,
    error: record.error?.message ?? null,
    error_code: record.error?.code ?? null,
    error_context: record.error?.context ?? null,
    expires_at: new Date(record.expiresAt).toISOString(),
  };
}
