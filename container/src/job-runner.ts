/**
 * A job runner: a child process of the converter that runs one task at a time and is reused
 * between tasks. The parent kills it on timeout or memory overrun (WASM memory is outside V8's
 * heap limits, and never shrinks), so a runaway job cannot take the service down.
 * The engines are imported at start, which keeps MuPDF's WASM start-up out of each job.
 */
import { AppError, type ContainerToolId, parseToolOptions } from "../../contract/index.ts";
import { inspectPdf } from "../../engines/pdf/inspect.ts";
import type { EngineInput } from "../../engines/types.ts";
import { handlers } from "./handlers.ts";
import type { JobFile, RunnerMessage, RunnerRequest, TaskResult } from "./job-protocol.ts";

function send(message: RunnerMessage): void {
  process.send?.(message);
}

/** Options travel as the form fields the parent validated; parsing them again types them. */
async function runTool<T extends ContainerToolId>(
  tool: T,
  fields: Record<string, string>,
  files: readonly JobFile[],
): Promise<TaskResult> {
  const options = parseToolOptions(tool, fields);
  if (!options.success) throw new AppError("INVALID_OPTIONS", options.issues);
  const inputs: EngineInput[] = files.map((file) => ({
    name: file.name,
    kind: file.kind,
    bytes: file.bytes,
  }));
  // The converter protocol has no progress channel: the Worker reports progress by stage.
  const output = await handlers[tool](inputs, options.data, () => {});
  return { ok: true, bytes: output.bytes, facts: output.facts };
}

async function runTask(request: RunnerRequest): Promise<TaskResult> {
  try {
    if (request.type === "inspect-pdf") return { ok: true, pages: inspectPdf(request.bytes).pages };
    return await runTool(request.tool, request.fields, request.files);
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toBody() };
    if (error instanceof RangeError && /allocation|memory/i.test(error.message)) {
      return { ok: false, error: { code: "JOB_OUT_OF_MEMORY", message: "The job ran out of memory." } };
    }
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      ok: false,
      error: { code: "INTERNAL", message: "The conversion failed." },
      detail: detail.slice(0, 300),
    };
  }
}

process.on("message", (request: RunnerRequest) => {
  const started = performance.now();
  void runTask(request).then((result) => {
    send({ type: "done", id: request.id, result, engineMs: performance.now() - started });
  });
});
// The parent went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
