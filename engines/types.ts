import type { FileKind, JobFacts, ToolId, ToolOptions } from "../contract/index.ts";

/** One input file of a job, already checked by content. */
export interface EngineInput {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
}

/** What every engine returns: the output bytes and facts measured on them (pages, pixels…). */
export interface EngineOutput {
  readonly bytes: Uint8Array;
  readonly facts: JobFacts;
}

/** Progress from 0 to 100 within the conversion step. */
export type ProgressReporter = (percent: number) => void;

/**
 * A conversion: bytes + validated options in, bytes + facts out. Engines know nothing of HTTP,
 * R2 or Durable Objects; they fail by throwing `AppError` with a code from contract/errors.ts.
 */
export type ToolHandler<T extends ToolId> = (
  inputs: readonly EngineInput[],
  options: ToolOptions<T>,
  progress: ProgressReporter,
) => Promise<EngineOutput>;

/** A handler for every tool of `Ids`: a missing one fails type-checking. */
export type HandlerTable<Ids extends ToolId> = { readonly [K in Ids]: ToolHandler<K> };
