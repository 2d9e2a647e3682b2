/**
 * Messages between the converter's HTTP process and its job runners (child processes, IPC with
 * the structured-clone serializer, so byte arrays travel without base64).
 */
import type { ContainerToolId, ErrorBody, FileKind, JobFacts } from "../../contract/index.ts";

export interface JobFile {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
}

/**
 * Work the parent sends: a tool job, its options as the form fields the parent already validated
 * with the tool's schema, or a PDF page count.
 */
export type RunnerTask =
  | {
      readonly type: "job";
      readonly tool: ContainerToolId;
      readonly fields: Record<string, string>;
      readonly files: readonly JobFile[];
    }
  | { readonly type: "inspect-pdf"; readonly bytes: Uint8Array };

export type RunnerRequest = RunnerTask & { readonly id: number };

/** What a task produced: output bytes and facts, a page count, or an error as data. */
export type TaskResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly facts: JobFacts }
  | { readonly ok: true; readonly pages: number }
  | { readonly ok: false; readonly error: ErrorBody; readonly detail?: string };

export type RunnerMessage =
  | { readonly type: "ready" }
  | { readonly type: "done"; readonly id: number; readonly result: TaskResult; readonly engineMs: number };
