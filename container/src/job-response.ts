/**
 * The answer to a job (contract/converter.ts): the 200 job stream starts at the engine's first
 * progress report or at the result, whichever comes first, so a job refused before any progress
 * (damaged or encrypted input) still answers the error envelope with its status. After the 200,
 * progress frames follow as the engine reports, then each output file read from disk, then the
 * facts; a failure after the 200 is an error frame. A job that waits for a runner, or runs
 * without progress, gets its 200 after `heartbeatMs` all the same, and a heartbeat frame each
 * `heartbeatMs` without another, so the Worker can tell a silent converter from a busy one.
 * `finished` runs once the response has been written to the end or abandoned: it frees the job's
 * place and removes its directory.
 */
import { createReadStream } from "node:fs";
import {
  CONVERTER_HEARTBEAT_MS,
  CONVERTER_STREAM_TYPE,
  type ErrorBody,
  type ErrorEnvelope,
  encodeFrame,
  errorStatus,
  type OutputFrame,
} from "../../contract/index.ts";
import type { TaskResult } from "./job-protocol.ts";
import type { ProgressListener } from "./runner.ts";

export function errorResponse(error: ErrorBody, id: string): Response {
  const envelope: ErrorEnvelope = { error, request_id: id };
  return Response.json(envelope, { status: errorStatus(error.code) });
}

/** Runs the job, reporting progress to the listener; resolves with its result (never rejects). */
export type JobStart = (onProgress: ProgressListener) => Promise<TaskResult>;

export async function jobResponse(
  id: string,
  start: JobStart,
  finished: () => void,
  heartbeatMs = CONVERTER_HEARTBEAT_MS,
): Promise<Response> {
  const progress: number[] = [];
  let result: TaskResult | undefined;
  const waiters: (() => void)[] = [];
  const signal = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const next = () => new Promise<void>((resolve) => waiters.push(resolve));
  /** The next event, or "beat" after `heartbeatMs` without one. */
  const nextOrBeat = () =>
    new Promise<"event" | "beat">((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve("event");
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(wake), 1);
        resolve("beat");
      }, heartbeatMs);
      waiters.push(wake);
    });
  void start((percent) => {
    progress.push(percent);
    signal();
  }).then((value) => {
    result = value;
    signal();
  });

  const startedByBeat = (await nextOrBeat()) === "beat";
  if (result !== undefined && !result.ok) {
    finished();
    return errorResponse(result.error, id);
  }

  async function* frames(): AsyncGenerator<Uint8Array> {
    if (startedByBeat) yield encodeFrame({ type: "heartbeat" } satisfies OutputFrame);
    for (;;) {
      for (let percent = progress.shift(); percent !== undefined; percent = progress.shift()) {
        yield encodeFrame({ type: "progress", percent } satisfies OutputFrame);
      }
      if (result !== undefined) break;
      if ((await nextOrBeat()) === "beat") yield encodeFrame({ type: "heartbeat" } satisfies OutputFrame);
    }
    if (!result.ok) {
      yield encodeFrame({ type: "error", error: result.error } satisfies OutputFrame);
      return;
    }
    if (!("outputs" in result)) {
      const error: ErrorBody = { code: "INTERNAL", message: "The job produced no file." };
      yield encodeFrame({ type: "error", error } satisfies OutputFrame);
      return;
    }
    for (const [index, output] of result.outputs.entries()) {
      const { kind, size, name } = output;
      const frame: OutputFrame =
        name === undefined ? { type: "file", index, kind, size } : { type: "file", index, kind, size, name };
      yield encodeFrame(frame);
      for await (const chunk of createReadStream(output.path)) yield chunk as Uint8Array;
    }
    yield encodeFrame({ type: "done", facts: result.facts } satisfies OutputFrame);
  }

  const iterator = frames();
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    finished();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await iterator.next();
        if (chunk.done) {
          controller.close();
          end();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    async cancel() {
      // The client went away: the runner is left to finish, its place is freed when it does.
      await waitForResult();
      await iterator.return(undefined);
      end();
    },
  });
  async function waitForResult(): Promise<void> {
    while (result === undefined) await next();
  }
  return new Response(body, { status: 200, headers: { "Content-Type": CONVERTER_STREAM_TYPE } });
}
