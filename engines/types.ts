import type { z } from "zod";
import type { FileKind, JobFacts, ToolDeclaration, ToolId, ToolOptions } from "../contract/index.ts";

/** One input file of a job, already checked by content. */
export interface EngineInput {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
  /**
   * The bytes as uploaded when the converter's input preparation rewrote them without a password
   * (a repair, a decryption with the empty password): what a tool that returns its input unchanged
   * returns, so no output is larger than the upload.
   */
  readonly uploaded?: Uint8Array;
}

/** What every engine returns: the output bytes and facts measured on them (pages, pixels…). */
export interface EngineOutput {
  readonly bytes: Uint8Array;
  readonly facts: JobFacts;
  /**
   * The output's kind when it is not the declaration's `output.kind`: a tool that answers one file
   * or a ZIP of several says which (one of `output.kind` and `output.single`).
   */
  readonly kind?: FileKind;
  /** Download name the engine chose (e.g. after the page range); the Worker makes it safe. */
  readonly name?: string;
}

/**
 * The files of a tool's extra file fields (ToolInput.extraFiles), by field name; a field the
 * request left out (an optional one) is absent.
 */
export type ExtraInputs = Readonly<Record<string, EngineInput>>;

/** Progress from 0 to 100 within the conversion step. */
export type ProgressReporter = (percent: number) => void;

/**
 * A conversion: bytes + validated options in, bytes + facts out. Engines know nothing of HTTP,
 * R2 or Durable Objects; they fail by throwing `AppError` with a code from contract/errors.ts.
 */
export type EngineHandler<Options> = (
  inputs: readonly EngineInput[],
  options: Options,
  progress: ProgressReporter,
  extras?: ExtraInputs,
) => Promise<EngineOutput>;

export type ToolHandler<T extends ToolId> = EngineHandler<ToolOptions<T>>;

/** A handler for every tool of `Ids`: a missing one fails type-checking. */
export type HandlerTable<Ids extends ToolId> = { readonly [K in Ids]: ToolHandler<K> };

/**
 * A tool folder's engine entry (`edge.ts`, `container.ts`): the handler, typed by the options of
 * the tool's declaration.
 */
export function engineFor<T extends ToolDeclaration>(
  _tool: T,
  handler: EngineHandler<z.output<T["options"]>>,
): EngineHandler<z.output<T["options"]>> {
  return handler;
}
