import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as mupdf from "mupdf";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { maxJobBytes } from "../../container/src/job-input.ts";
import { type RunningConverter, startConverter } from "../../container/src/server.ts";
import {
  CONVERTER_JOB_PATH,
  CONVERTER_SECRET_HEADER,
  encodeFrame,
  errorEnvelopeSchema,
  healthResponseSchema,
} from "../../contract/index.ts";
import { halfTransparentPng, heavyPdf, openPdf, pageText, pageTexts, textPdf } from "./fixtures.ts";
import {
  AUTH,
  jobError,
  jobFailure,
  jobOutput,
  pdfFile,
  pngFile,
  postInspect,
  postJob,
  readJobStream,
  TEST_SECRET,
} from "./http.ts";

const started: RunningConverter[] = [];
const logs: string[] = [];

async function converterWith(
  limits: Partial<Parameters<typeof startConverter>[0]>,
): Promise<RunningConverter> {
  const converter = await startConverter({
    port: 0,
    secret: TEST_SECRET,
    log: (line) => logs.push(line),
    logJobs: true,
    ...limits,
  });
  started.push(converter);
  return converter;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((converter) => converter.close()));
  logs.length = 0;
});

/** Job directories land under TMPDIR: a private one shows what the converter leaves behind. */
let jobsTmp: string;
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  jobsTmp = mkdtempSync(join(tmpdir(), "converter-test-"));
  process.env.TMPDIR = jobsTmp;
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  rmSync(jobsTmp, { recursive: true, force: true });
});

/** Job directories of every converter root under the test's TMPDIR. */
function jobDirs(): string[] {
  return readdirSync(jobsTmp).flatMap((root) => {
    try {
      return readdirSync(join(jobsTmp, root)).map((dir) => join(root, dir));
    } catch {
      return [];
    }
  });
}

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Sends a job request declaring `declared` bytes, writes only its job frame, and resolves with the
 * response if one comes before the body does (a refusal decided from Content-Length).
 */
function declaredOnly(url: string, declared: number): { response: Promise<Response>; abort(): void } {
  const upload = request(`${url}${CONVERTER_JOB_PATH}/merge-pdf`, {
    method: "POST",
    headers: { ...AUTH, "Content-Length": String(declared) },
  });
  const response = new Promise<Response>((resolve, reject) => {
    upload.on("response", (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () =>
        resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 0 })),
      );
    });
    upload.on("error", reject);
  });
  response.catch(() => undefined);
  upload.write(encodeFrame({ type: "job", options: {}, files: 1 }));
  return { response, abort: () => upload.destroy() };
}

describe("converter protocol", () => {
  it("refuses requests without the secret or with a wrong one (403), and runs nothing", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const files = [pdfFile("a.pdf", textPdf("A", 1))];
    const attempts: Record<string, string>[] = [
      {},
      { [CONVERTER_SECRET_HEADER]: `${TEST_SECRET}x` },
      { [CONVERTER_SECRET_HEADER]: "" },
    ];
    for (const headers of attempts) {
      const { status, error } = await jobError(await postJob(converter.url, "merge-pdf", {}, files, headers));
      expect([status, error.code]).toEqual([403, "ORIGIN_FORBIDDEN"]);
      const inspect = await jobError(await postInspect(converter.url, textPdf("A", 1), headers));
      expect([inspect.status, inspect.error.code]).toEqual([403, "ORIGIN_FORBIDDEN"]);
    }
    expect(logs.filter((line) => /merge-pdf|inspect-pdf/.test(line))).toEqual([]);
    expect(jobDirs()).toEqual([]);
    await jobOutput(await postJob(converter.url, "merge-pdf", {}, files));
    expect(logs.filter((line) => line.startsWith("merge-pdf ok"))).toHaveLength(1);
  });

  it("receives inputs of several megabytes byte for byte (written to disk in batches)", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const heavy = heavyPdf(3, 11);
    const inspected = await postInspect(converter.url, heavy);
    expect(await inspected.json()).toEqual({ pages: 1, repaired: false });
    const files = [pdfFile("heavy.pdf", heavy), pdfFile("text.pdf", textPdf("T", 2))];
    const merged = openPdf((await jobOutput(await postJob(converter.url, "merge-pdf", {}, files))).bytes);
    expect(merged.countPages()).toBe(3);
    const pixels = (doc: mupdf.PDFDocument) =>
      doc.findPage(0).get("Resources").get("XObject").get("Im1").readStream().asUint8Array();
    expect(Buffer.from(pixels(merged)).equals(Buffer.from(pixels(openPdf(heavy))))).toBe(true);
  });

  it("refuses a job over the tool's limit from Content-Length, before reading the body", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const upload = declaredOnly(converter.url, maxJobBytes("merge-pdf") + 1);
    const envelope = errorEnvelopeSchema.parse(await (await upload.response).json());
    expect(envelope.error.code).toBe("FILE_TOO_LARGE");
    upload.abort();
  });

  it("admits waiting jobs by declared bytes and count, and admits 64 concurrent small merges", async () => {
    const converter = await converterWith({ concurrency: 1, queueLimit: 70, queueBytes: 1024 * 1024 });
    // Nothing waits: a job over the byte budget alone is admitted (it waits for its body).
    const first = declaredOnly(converter.url, 700 * 1024);
    await eventually(() => jobDirs().length === 1);
    // A second one would take the waiting bytes over the budget: busy before its body is read.
    const second = declaredOnly(converter.url, 700 * 1024);
    expect(errorEnvelopeSchema.parse(await (await second.response).json()).error.code).toBe("CONVERTER_BUSY");
    first.abort();
    second.abort();
    await eventually(() => jobDirs().length === 0);

    const jobs = Array.from({ length: 64 }, (_, n) =>
      postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf(`J${n}`, 1))]),
    );
    const outputs = await Promise.all(jobs.map(async (job) => jobOutput(await job)));
    expect(outputs.map((output) => pageTexts(openPdf(output.bytes))[0])).toEqual(
      Array.from({ length: 64 }, (_, n) => pageText(`J${n}`, 0)),
    );
    await eventually(() => jobDirs().length === 0);
  });

  it("keeps engine text out of API messages and logs it with the request id", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const png = await halfTransparentPng(64, 64);
    const cut = pngFile("x.png", png.subarray(0, Math.floor(png.length / 2)));
    const headers = { ...AUTH, "X-Request-Id": "req-engine-1" };
    const error = await jobFailure(await postJob(converter.url, "png-to-jpg", {}, [cut], headers));
    expect(error).toEqual({ code: "IMAGE_DAMAGED", message: "The PNG could not be decoded." });
    const line = logs.find((entry) => entry.includes("failed IMAGE_DAMAGED"));
    expect(line).toMatch(/^png-to-jpg failed IMAGE_DAMAGED request_id=req-engine-1 \S/);
    expect(line).not.toContain("x.png");
  });

  it("removes roots left by a crashed converter at start, and its own root on close", async () => {
    // A pid that is certainly dead: a process that has already exited.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const stale = join(jobsTmp, `converter-${dead}-abcdef`);
    mkdirSync(join(stale, "job-x"), { recursive: true });
    writeFileSync(join(stale, "job-x", "in-0"), "left by a crash");
    const converter = await converterWith({ concurrency: 1 });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(converter.jobsRoot)).toBe(true);
    await converter.close();
    expect(existsSync(converter.jobsRoot)).toBe(false);
  });

  it("removes a job's directory after success and after a refusal", async () => {
    const converter = await converterWith({ concurrency: 1 });
    await jobOutput(await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 2))]));
    const png = { name: "x.png", kind: "png" as const, bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) };
    expect((await jobError(await postJob(converter.url, "merge-pdf", {}, [png]))).error.code).toBe(
      "UNSUPPORTED_FILE_TYPE",
    );
    await eventually(() => jobDirs().length === 0);
  });

  it("answers JOB_INTERRUPTED when the runner is killed mid-job", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const long = textPdf("L", 1200); // four of them: under merge's 5,000 pages
    // The 200 starts at the first progress report: the runner is then inside the engine.
    const response = await postJob(
      converter.url,
      "merge-pdf",
      {},
      [1, 2, 3, 4].map((n) => pdfFile(`${n}.pdf`, long)),
    );
    expect(response.status).toBe(200);
    for (const pid of converter.runnerPids()) process.kill(pid, "SIGKILL");
    expect((await jobFailure(response)).code).toBe("JOB_INTERRUPTED");
    await eventually(() => jobDirs().length === 0);
  });

  it("on close, lets an admitted job finish and its response be written in full", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const files = [pdfFile("a.pdf", textPdf("A", 600)), pdfFile("b.pdf", textPdf("B", 600))];
    // The 200 starts at the first progress report: the job is running when the close begins.
    const response = await postJob(converter.url, "merge-pdf", {}, files);
    const closing = converter.close(30_000);
    const output = await jobOutput(response);
    expect(output.facts).toMatchObject({ pages: 1200, files: 2 });
    expect(pageTexts(openPdf(output.bytes)).at(-1)).toBe(pageText("B", 599));
    await closing;
    await expect(fetch(`${converter.url}/healthz`)).rejects.toThrow();
  });
});

describe("wedged runners", () => {
  async function runners(converter: RunningConverter) {
    const health = healthResponseSchema.parse(await (await fetch(`${converter.url}/healthz`)).json());
    return health.runners;
  }

  it("replaces a runner that freezes mid-job (SIGSTOP): the job fails JOB_INTERRUPTED, heartbeats meanwhile, the next job succeeds", async () => {
    const converter = await converterWith({ concurrency: 1, wedgedMs: 1500, heartbeatMs: 200 });
    expect(await runners(converter)).toEqual({ busy: 0, idle: 1, starting: 0, replaced: 0, wedged: 0 });
    const long = textPdf("L", 1200);
    const response = await postJob(
      converter.url,
      "merge-pdf",
      {},
      [1, 2, 3, 4].map((n) => pdfFile(`${n}.pdf`, long)),
    );
    expect(response.status).toBe(200);
    const [frozen] = converter.runnerPids();
    if (frozen === undefined) throw new Error("no runner");
    process.kill(frozen, "SIGSTOP");
    const stoppedAt = Date.now();
    const stream = await readJobStream(response);
    expect(stream.error?.code).toBe("JOB_INTERRUPTED");
    // Found within the wedged time plus a few checks, not at the 120 s job limit.
    expect(Date.now() - stoppedAt).toBeLessThan(6_000);
    expect(stream.heartbeats).toBeGreaterThanOrEqual(3);
    expect(logs.some((line) => line.includes(`runner ${frozen} replaced: no answer`))).toBe(true);
    await eventually(() => !isAlive(frozen));
    const next = await jobOutput(
      await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 2))]),
    );
    expect(next.facts).toMatchObject({ pages: 2 });
    expect(await runners(converter)).toMatchObject({ busy: 0, idle: 1, replaced: 1, wedged: 1 });
    expect(converter.runnerPids()).not.toContain(frozen);
  });

  it("starts the answer of a job waiting for a runner after one heartbeat period and beats until it runs", async () => {
    const converter = await converterWith({ concurrency: 1, heartbeatMs: 200 });
    const long = textPdf("L", 1200);
    const first = await postJob(
      converter.url,
      "merge-pdf",
      {},
      [1, 2, 3].map((n) => pdfFile(`${n}.pdf`, long)),
    );
    expect(first.status).toBe(200);
    const sent = Date.now();
    const queued = await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 2))]);
    // Answered while the first job still holds the only runner.
    expect(queued.status).toBe(200);
    expect(Date.now() - sent).toBeLessThan(3000);
    const [firstStream, queuedStream] = await Promise.all([readJobStream(first), readJobStream(queued)]);
    expect(firstStream.facts).toMatchObject({ pages: 3600 });
    expect(queuedStream.facts).toMatchObject({ pages: 2 });
    expect(queuedStream.heartbeats).toBeGreaterThanOrEqual(1);
  });

  it("leaves a runner busy in a long engine call alone while it uses CPU", async () => {
    const converter = await converterWith({ concurrency: 1, wedgedMs: 300 });
    // Pages of 1,200 text lines: MuPDF works for long stretches between two progress reports.
    const files = [1, 2].map((n) => pdfFile(`${n}.pdf`, textPdf("W", 1200)));
    const output = await jobOutput(await postJob(converter.url, "merge-pdf", {}, files));
    expect(output.facts).toMatchObject({ pages: 2400 });
    expect((await runners(converter)).wedged).toBe(0);
  });

  it("replaces an idle runner found stopped when a job would take it", async () => {
    const converter = await converterWith({ concurrency: 1 });
    const [stopped] = converter.runnerPids();
    if (stopped === undefined) throw new Error("no runner");
    process.kill(stopped, "SIGSTOP");
    const started = Date.now();
    const output = await jobOutput(
      await postJob(converter.url, "merge-pdf", {}, [pdfFile("a.pdf", textPdf("A", 3))]),
    );
    expect(output.facts).toMatchObject({ pages: 3 });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await runners(converter)).toMatchObject({ replaced: 1, wedged: 1 });
    await eventually(() => !isAlive(stopped));
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
