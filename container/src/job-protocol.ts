/**
 * Messages between the converter's HTTP process and its job runners (child processes, IPC with
 * the structured-clone serializer). Inputs and outputs stay on disk in the job's directory: only
 * paths, options and facts cross the process boundary.
 */
import type { ContainerToolId, ErrorBody, FileKind, JobFacts, ToolOptions } from "../../contract/index.ts";

/** One input file, already streamed to disk and checked by content. */
export interface JobFile {
  readonly name: string;
  readonly kind: FileKind;
  readonly path: string;
  readonly size: number;
  /** The tool's extra file field it came in; absent for a main file. */
  readonly field?: string;
}

/** A tool job with options already typed by the tool's schema in the parent. */
export interface ToolTask<T extends ContainerToolId = ContainerToolId> {
  readonly type: "job";
  readonly tool: T;
  readonly options: ToolOptions<T>;
  readonly files: readonly JobFile[];
  /** Where the runner writes the outputs (the job's directory). */
  readonly dir: string;
}

/** Work the parent sends: a tool job, or the page count of one PDF. */
export type RunnerTask =
  | ToolTask
  | { readonly type: "inspect-pdf"; readonly path: string; readonly password?: string | undefined };

/** A task with its number, or a liveness ping (answered with a pong when the event loop is free). */
export type RunnerRequest = (RunnerTask & { readonly id: number }) | { readonly type: "ping" };

/** One output the runner wrote. */
export interface OutputFile {
  readonly path: string;
  readonly kind: FileKind;
  readonly size: number;
  readonly name?: string;
}

/**
 * What a task produced: output files and facts, a page count, or an error as data; `detail` is
 * the engine's own text, for the log only.
 */
export type TaskResult =
  | { readonly ok: true; readonly outputs: readonly OutputFile[]; readonly facts: JobFacts }
  | { readonly ok: true; readonly pages: number; readonly repaired: boolean }
  | { readonly ok: false; readonly error: ErrorBody; readonly detail?: string };

export type RunnerMessage =
  | { readonly type: "ready" }
  | { readonly type: "pong" }
  | { readonly type: "progress"; readonly id: number; readonly percent: number }
  /** Pages of the job's inputs, for a tool whose time limit grows with them (ToolDeclaration.jobTime). */
  | { readonly type: "pages"; readonly id: number; readonly pages: number }
  | { readonly type: "done"; readonly id: number; readonly result: TaskResult; readonly engineMs: number };
