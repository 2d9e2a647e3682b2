import { readFileSync } from "node:fs";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningConverter, startConverter } from "../../container/src/server.ts";
import {
  CONVERTER_HEALTH_PATH,
  CONVERTER_JOB_PATH,
  errorStatus,
  healthResponseSchema,
} from "../../contract/index.ts";
import { scanImage, scanPdf } from "../support/scan-pages.ts";
import { heavyPdf, openPdf, pageText, pageTexts, textPdf } from "./fixtures.ts";
import { AUTH, jobBody, jobError, jobFailure, jobOutput, pdfFile, postJob, TEST_SECRET } from "./http.ts";

const started: RunningConverter[] = [];

async function converterWith(
  limits: Partial<Parameters<typeof startConverter>[0]>,
): Promise<RunningConverter> {
  const converter = await startConverter({ port: 0, log: () => {}, secret: TEST_SECRET, ...limits });
  started.push(converter);
  return converter;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((converter) => converter.close()));
});

async function health(converter: RunningConverter) {
  return healthResponseSchema.parse(await (await fetch(`${converter.url}${CONVERTER_HEALTH_PATH}`)).json());
}

/** A small job that must succeed: proves the service (and a runner) is usable again. */
async function smallJobWorks(converter: RunningConverter): Promise<void> {
  const output = await jobOutput(
    await postJob(converter.url, "merge-pdf", {}, [pdfFile("s.pdf", textPdf("S", 1))]),
  );
  expect(pageTexts(openPdf(output.bytes))).toEqual([pageText("S", 0)]);
}

/**
 * Starts a job upload declaring `size` bytes and sends only its first half: the job holds its
 * place in the pool meanwhile.
 */
async function stalledUpload(url: string, size = 1024): Promise<{ abort(): void }> {
  const body = await jobBody({}, [pdfFile("s.pdf", textPdf("S", Math.max(1, size >> 10)))]);
  const upload = request(`${url}${CONVERTER_JOB_PATH}/merge-pdf`, {
    method: "POST",
    headers: { ...AUTH, "Content-Length": String(body.length) },
  });
  upload.on("error", () => {});
  upload.write(body.subarray(0, body.length >> 1));
  return { abort: () => upload.destroy() };
}

/** Retries `check` until it returns true; a failure after the deadline is rethrown. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
      if (Date.now() > deadline) throw new Error("condition not reached in time");
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A process's session id and nice value (/proc/<pid>/stat fields 6 and 19). */
function schedulingOf(pid: number): { session: number; nice: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { session: Number(fields[3]), nice: Number(fields[16]) };
}

/**
 * The nice value of a process's scheduling group (/proc/<pid>/autogroup: "/autogroup-N nice K"),
 * or undefined where the kernel has no autogroups or the process is in none (the file is then
 * empty, as in a container whose cgroup does its scheduling).
 */
function autogroupNice(pid: number): number | undefined {
  try {
    const nice = /nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"))?.[1];
    return nice === undefined ? undefined : Number(nice);
  } catch {
    return undefined;
  }
}

describe("converter limits", () => {
  it("runs ready job runners below the HTTP process when asked (RUNNER_NICE): own session, niced", async () => {
    const converter = await converterWith({ concurrency: 2, queueLimit: 1, runnerNice: 10 });
    const pids = converter.runnerPids();
    expect(pids).toHaveLength(2);
    const own = schedulingOf(process.pid);
    for (const pid of pids) {
      const runner = schedulingOf(pid);
      expect(runner.session).toBe(pid);
      expect(runner.nice).toBe(Math.min(19, own.nice + 10));
      // The runner's own group (it has one: a new session) is lowered from the service's, which
      // counts as 0 when the service is in no autogroup.
      const group = autogroupNice(pid);
      if (group !== undefined) expect(group).toBe(Math.min(19, (autogroupNice(process.pid) ?? 0) + 10));
    }
    // The service itself keeps its priority, and a niced runner still runs jobs.
    expect(schedulingOf(process.pid).nice).toBe(own.nice);
    await smallJobWorks(converter);
    // By default (RUNNER_NICE=0) the runners share the service's session and nice.
    const flat = await converterWith({ concurrency: 1, queueLimit: 1 });
    for (const pid of flat.runnerPids()) expect(schedulingOf(pid)).toEqual(own);
  });

  it("answers 503 CONVERTER_BUSY when running and queued jobs fill the pool", async () => {
    const converter = await converterWith({ concurrency: 1, queueLimit: 1 });
    const uploads = await Promise.all([stalledUpload(converter.url), stalledUpload(converter.url)]);
    // Both stalled uploads are admitted (one slot, one queue place): the next job is refused.
    await eventually(async () => {
      const response = await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 1))]);
      if (response.ok) return false;
      const { status, error } = await jobError(response);
      expect([error.code, status]).toEqual(["CONVERTER_BUSY", errorStatus("CONVERTER_BUSY")]);
      return true;
    });
    for (const upload of uploads) upload.abort();
    // Aborted uploads give their places back.
    await eventually(async () => {
      const response = await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 1))]);
      await response.arrayBuffer();
      return response.ok;
    });
  });

  it("stops a job over the time limit with JOB_TIMEOUT and replaces its runner", async () => {
    const converter = await converterWith({ concurrency: 1, queueLimit: 0, timeoutMs: 250 });
    const long = textPdf("L", 1200); // four of them: under merge's 5,000 pages
    const files = [1, 2, 3, 4].map((n) => pdfFile(`${n}.pdf`, long));
    const started = performance.now();
    const error = await jobFailure(await postJob(converter.url, "merge-pdf", {}, files));
    expect([error.code, errorStatus(error.code)]).toEqual(["JOB_TIMEOUT", 504]);
    expect(error.context).toEqual({ limit_ms: 250 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await health(converter)).running).toBe(0);
    await eventually(async () => {
      await smallJobWorks(converter);
      return true;
    });
  });

  it("gives an OCR job a time limit that grows with its pages, and the base limit to a short one", async () => {
    // OCR declares 12 s a page at the default 120 s base: at a 1.5 s base, 0.15 s a page, so 5 pages
    // keep the base and 30 pages get 4.5 s. A page of text costs Tesseract about 0.5 CPU s: both
    // jobs run over their limits, whose values (and the time they ran) tell which one applied.
    const converter = await converterWith({ concurrency: 1, queueLimit: 0, timeoutMs: 1500 });
    const sentence = "The river flows quietly past the old mill, where children gather every summer.";
    const page = await scanImage({ markdown: Array.from({ length: 6 }, () => sentence).join("\n\n") });
    for (const [pages, limit] of [
      [5, 1500],
      [30, 4500],
    ] as const) {
      const started = performance.now();
      const scan = pdfFile("scan.pdf", scanPdf(Array.from({ length: pages }, () => page)));
      const error = await jobFailure(await postJob(converter.url, "ocr", { languages: "en" }, [scan]));
      expect([pages, error.code, error.context]).toEqual([pages, "JOB_TIMEOUT", { limit_ms: limit }]);
      expect(performance.now() - started).toBeGreaterThanOrEqual(limit);
    }
    await eventually(async () => {
      await smallJobWorks(converter);
      return true;
    });
  });

  it("replaces a runner whose job ended in a WebAssembly trap: the next job runs on a fresh one", async () => {
    const converter = await converterWith({
      concurrency: 1,
      queueLimit: 1,
      runnerScript: new URL("./trapping-runner.ts", import.meta.url),
    });
    const [trapped] = converter.runnerPids();
    const error = await jobFailure(
      await postJob(converter.url, "merge-pdf", {}, [pdfFile("trap.pdf", textPdf("T", 1))]),
    );
    expect(error.code).toBe("INTERNAL");
    await eventually(async () => (await health(converter)).runners.replaced === 1);
    await smallJobWorks(converter);
    expect(converter.runnerPids()).not.toContain(trapped);
  });

  it("stops a job over the memory cap with JOB_OUT_OF_MEMORY and replaces its runner", async () => {
    const converter = await converterWith({ concurrency: 1, queueLimit: 1, memoryMb: 320 });
    // Four 24 MB images of random bytes: the runner holds inputs (read from disk), sources and the
    // merged copy, far over 320 MB.
    const files = [1, 2, 3, 4].map((seed) => pdfFile(`${seed}.pdf`, heavyPdf(24, seed)));
    // The engine reports progress before the cap is reached: the error comes as a frame of the 200.
    const error = await jobFailure(await postJob(converter.url, "merge-pdf", {}, files));
    expect([error.code, errorStatus(error.code)]).toEqual(["JOB_OUT_OF_MEMORY", 507]);
    expect(error.context).toEqual({ limit_mb: 320 });
    await smallJobWorks(converter);
  });
});
