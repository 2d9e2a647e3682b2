import { AppError, type AvailableToolId, type EdgeToolId, FILE_KINDS, TOOLS } from "../contract/index.ts";
import { fitsEdgeBudget } from "../engines/edge-budget.ts";
import { edgeHandlers } from "../engines/edge-handlers.ts";
import type { EngineInput, EngineOutput, ExtraInputs, ToolHandler } from "../engines/types.ts";
import type { ConverterClient, ConverterFileMeta, ConverterInput } from "./converter-client.ts";
import { EDGE_JOB_QUEUE, edgeSlots } from "./edge-slots.ts";
import { outputFilename, safeFilename } from "./file-names.ts";
import { r2Body } from "./r2-body.ts";
import { outputKey } from "./task-files.ts";
import { JOB_PROGRESS, type TaskOutput, type TaskRecord } from "./task-record.ts";
import type { StoredInput } from "./upload.ts";

/** What a job needs from outside: the file store and the converter. */
export interface JobDeps {
  readonly files: R2Bucket;
  readonly converter: ConverterClient;
}

export interface JobResult {
  readonly outputs: TaskOutput[];
  readonly facts: EngineOutput["facts"];
}

export type ProgressSink = (percent: number) => void;

function isEdgeTool(tool: AvailableToolId): tool is EdgeToolId {
  return TOOLS[tool].engine.kind === "edge" && Object.hasOwn(edgeHandlers, tool);
}

/** The byte part of the edge budget, checked on stored sizes before anything is loaded into memory. */
function withinEdgeBytes(tool: EdgeToolId, inputs: readonly StoredInput[]): boolean {
  const engine = TOOLS[tool].engine;
  return engine.kind === "edge" && inputs.every((input) => input.size <= engine.edgeBudget.maxBytes);
}

async function openInput(files: R2Bucket, input: StoredInput): Promise<R2ObjectBody> {
  const object = await files.get(input.key);
  // The upload was stored before the task was created; its absence means the task was deleted.
  if (object === null) throw new AppError("TASK_NOT_FOUND", "The task's files are gone");
  return object;
}

async function loadInputs(files: R2Bucket, inputs: readonly StoredInput[]): Promise<EngineInput[]> {
  return Promise.all(
    inputs.map(async (input) => {
      const object = await openInput(files, input);
      return { name: input.name, kind: input.kind, bytes: new Uint8Array(await object.arrayBuffer()) };
    }),
  );
}

/** The files of the task's extra file fields, by field, for an edge engine. */
async function loadExtras(files: R2Bucket, extras: readonly StoredInput[]): Promise<ExtraInputs> {
  const loaded = await loadInputs(files, extras);
  return Object.fromEntries(extras.map((input, index) => [input.field ?? "", loaded[index] as EngineInput]));
}

/**
 * A stored input as the converter's job stream sends it, opened only when the stream reaches it;
 * `opened.object`, the input opened already, is handed over instead (once) and cleared.
 */
function converterInput(
  files: R2Bucket,
  input: StoredInput,
  opened: { object?: R2ObjectBody | undefined } = {},
): ConverterInput {
  return {
    name: input.name,
    kind: input.kind,
    size: input.size,
    field: input.field,
    open: async () => {
      const object = opened.object ?? (await openInput(files, input));
      opened.object = undefined;
      return { body: object.body, size: object.size };
    },
  };
}

async function runEdge(
  task: TaskRecord & { tool: EdgeToolId },
  inputs: readonly EngineInput[],
  extras: ExtraInputs,
  progress: ProgressSink,
): Promise<EngineOutput> {
  // The options were validated by this tool's schema when the task was created.
  const handler = edgeHandlers[task.tool] as ToolHandler<EdgeToolId>;
  const span = JOB_PROGRESS.converted - JOB_PROGRESS.converting;
  return handler(
    inputs,
    task.options as Parameters<typeof handler>[1],
    (percent) =>
      progress(JOB_PROGRESS.converting + Math.round((Math.min(Math.max(percent, 0), 100) * span) / 100)),
    extras,
  );
}

/**
 * Download name of output `index`: the engine's choice when it made one, else the tool's name for
 * the first, numbered after it for the others.
 */
function outputName(task: TaskRecord, meta: ConverterFileMeta): string {
  const { index, kind, name } = meta;
  if (name !== undefined) return safeFilename(name);
  const first = outputFilename(task.tool, task.inputs[0]?.name ?? "file");
  if (index === 0) return first;
  const dot = first.lastIndexOf(".");
  return `${dot > 0 ? first.slice(0, dot) : first}-${index + 1}.${FILE_KINDS[kind].extensions[0]}`;
}

async function storeOutput(
  files: R2Bucket,
  task: TaskRecord,
  meta: ConverterFileMeta,
  body: ReadableStream<Uint8Array> | Uint8Array,
): Promise<TaskOutput> {
  const key = outputKey(task.id, meta.index);
  const filename = outputName(task, meta);
  const stored = await files.put(key, r2Body(body, meta.size), {
    httpMetadata: { contentType: FILE_KINDS[meta.kind].mime },
  });
  return { key, filename, size: stored.size, kind: meta.kind };
}

/**
 * An edge tool's job at the edge, in one of the isolate's edge slots (edge-slots.ts) from loading
 * its inputs to storing its output; undefined when its inputs are over the edge budget after all.
 */
async function edgeJob(
  task: TaskRecord & { tool: EdgeToolId },
  deps: JobDeps,
  progress: ProgressSink,
): Promise<JobResult | undefined> {
  const release = await edgeSlots.acquire();
  try {
    const inputs = await loadInputs(deps.files, task.inputs);
    progress(JOB_PROGRESS.inputsReady);
    if (!fitsEdgeBudget(task.tool, inputs)) return undefined;
    progress(JOB_PROGRESS.converting);
    const extras = await loadExtras(deps.files, task.extras ?? []);
    const output = await runEdge(task, inputs, extras, progress);
    progress(JOB_PROGRESS.converted);
    const kind = output.kind ?? TOOLS[task.tool].output.kind;
    const meta: ConverterFileMeta = { index: 0, kind, size: output.bytes.length, name: output.name };
    return { outputs: [await storeOutput(deps.files, task, meta, output.bytes)], facts: output.facts };
  } finally {
    release();
  }
}

/**
 * Runs one job: at the edge when the tool is an edge tool, its inputs fit the edge budget and the
 * isolate's edge queue is not full, otherwise in the converter (inputs streamed from R2, output
 * streamed back into R2).
 */
export async function runJob(task: TaskRecord, deps: JobDeps, progress: ProgressSink): Promise<JobResult> {
  const tool = task.tool;
  if (isEdgeTool(tool) && withinEdgeBytes(tool, task.inputs) && edgeSlots.admits(EDGE_JOB_QUEUE)) {
    const result = await edgeJob({ ...task, tool }, deps, progress);
    if (result !== undefined) return result;
  }

  const stored = [...task.inputs, ...(task.extras ?? [])];
  // The job stream sends the first input first: it is opened now, instead of a `head` to check it is
  // there and a `get` when the stream reaches it (one R2 round trip less on the job's start). The
  // others, which the stream reaches later, are only checked now.
  const [first, ...rest] = stored;
  const [opened, ...present] = await Promise.all([
    first === undefined ? null : deps.files.get(first.key),
    ...rest.map((input) => deps.files.head(input.key)),
  ]);
  const held = { object: opened ?? undefined };
  if ((first !== undefined && opened === null) || present.some((object) => object === null)) {
    await held.object?.body.cancel();
    throw new AppError("TASK_NOT_FOUND", "The task's files are gone");
  }
  progress(JOB_PROGRESS.inputsReady);
  progress(JOB_PROGRESS.converting);
  const span = JOB_PROGRESS.converted - JOB_PROGRESS.converting;
  const outputs: TaskOutput[] = [];
  const { facts } = await deps.converter
    .runJob(
      tool,
      task.options,
      stored.map((input, index) => converterInput(deps.files, input, index === 0 ? held : {})),
      {
        onProgress: (percent) => progress(JOB_PROGRESS.converting + Math.round((percent * span) / 100)),
        onFile: async (meta, body) => {
          // R2 stores a stream only when its length is known: the converter announces it in the frame.
          outputs.push(await storeOutput(deps.files, task, meta, body));
        },
      },
    )
    // A call that ended before its stream took the first input (a busy converter) leaves it unread.
    .finally(() => held.object?.body.cancel().catch(() => undefined));
  if (outputs.length === 0) throw new AppError("INTERNAL", "The converter returned no file");
  progress(JOB_PROGRESS.converted);
  return { outputs, facts };
}
