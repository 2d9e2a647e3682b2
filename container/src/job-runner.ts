/**
 * A job runner: a child process of the converter that runs one task at a time and is reused
 * between tasks. The parent kills it on timeout or memory overrun (WASM memory is outside V8's
 * heap limits, and never shrinks), so a runaway job cannot take the service down.
 * The engines are imported at start, which keeps MuPDF's WASM start-up out of each job, and the
 * render threads of a typical PDF to JPG job are started idle (warmRenderThreads).
 * Inputs are read from the job's directory and outputs written there; options arrive typed (the
 * parent validated them with the tool's schema) and are not parsed again.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError, type ContainerToolId, declarationOf, TOOLS } from "../../contract/index.ts";
import { inspectPdf } from "../../engines/pdf/inspect.ts";
import { decryptOpenableInputs } from "../../engines/pdf/open-without-password.ts";
import { warmRenderThreads } from "../../engines/pdf/render-threads.ts";
import type { EngineInput, ExtraInputs, ToolHandler } from "../../engines/types.ts";
import { handlers } from "./handlers.ts";
import type {
  JobFile,
  RunnerMessage,
  RunnerRequest,
  RunnerTask,
  TaskResult,
  ToolTask,
} from "./job-protocol.ts";
import { inputPages, preparedInputs } from "./prepared-inputs.ts";

function send(message: RunnerMessage): void {
  process.send?.(message);
}

async function readInput(file: JobFile): Promise<EngineInput> {
  return { name: file.name, kind: file.kind, bytes: await readFile(file.path) };
}

/** The files of the tool's extra file fields, by field. */
async function readExtras(files: readonly JobFile[]): Promise<ExtraInputs> {
  const entries = await Promise.all(
    files.flatMap((file) =>
      file.field === undefined ? [] : [readInput(file).then((input) => [file.field, input])],
    ),
  );
  return Object.fromEntries(entries);
}

async function runTool(task: ToolTask, id: number): Promise<TaskResult> {
  const read = await Promise.all(task.files.filter((file) => file.field === undefined).map(readInput));
  const extras = await readExtras(task.files);
  const inputs = await preparedInputs(task.tool, task.options, read);
  // The parent sets the job's time limit from its pages before the tool starts.
  if (declarationOf(task.tool).jobTime !== undefined)
    send({ type: "pages", id, pages: await inputPages(inputs) });
  let reported = -1;
  const progress = (percent: number) => {
    const value = Math.min(100, Math.max(0, Math.floor(percent)));
    if (value === reported || !Number.isFinite(value)) return;
    reported = value;
    send({ type: "progress", id, percent: value });
  };
  const handler = handlers[task.tool] as ToolHandler<ContainerToolId>;
  const output = await handler(inputs, task.options, progress, extras);
  const path = join(task.dir, "out-0");
  await writeFile(path, output.bytes, { mode: 0o600 });
  const kind = output.kind ?? TOOLS[task.tool].output.kind;
  const file = { path, kind, size: output.bytes.length };
  return {
    ok: true,
    outputs: [output.name === undefined ? file : { ...file, name: output.name }],
    facts: output.facts,
  };
}

function engineText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.replace(/\s+/g, " ").slice(0, 300);
}

async function runTask(request: RunnerTask & { readonly id: number }): Promise<TaskResult> {
  try {
    if (request.type === "inspect-pdf") {
      const [pdf] = await decryptOpenableInputs(
        [{ name: "", kind: "pdf", bytes: await readFile(request.path) }],
        [request.password],
      );
      return { ok: true, ...inspectPdf(pdf?.bytes ?? new Uint8Array(), request.password) };
    }
    return await runTool(request, request.id);
  } catch (error) {
    if (error instanceof AppError) {
      return error.detail === undefined
        ? { ok: false, error: error.toBody() }
        : { ok: false, error: error.toBody(), detail: error.detail };
    }
    // Engine errors (libvips, MuPDF, WASM traps) never reach an API message: the text goes to the log.
    if (error instanceof RangeError && /allocation|memory/i.test(error.message)) {
      return {
        ok: false,
        error: { code: "JOB_OUT_OF_MEMORY", message: "The job ran out of memory." },
        detail: engineText(error),
      };
    }
    return {
      ok: false,
      error: { code: "INTERNAL", message: "The conversion failed." },
      detail: engineText(error),
    };
  }
}

process.on("message", (request: RunnerRequest) => {
  // The parent's heartbeat: answered whenever the event loop turns (between an engine's pages).
  if (request.type === "ping") {
    send({ type: "pong" });
    return;
  }
  const started = performance.now();
  void runTask(request).then((result) => {
    send({ type: "done", id: request.id, result, engineMs: performance.now() - started });
  });
});
// The parent went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
warmRenderThreads();
send({ type: "ready" });
