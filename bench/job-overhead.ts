/**
 * What the converter's process isolation costs per job: the same merge run in-process (engine
 * only) and through the HTTP service. From the service's job log: `request` (admission to result:
 * upload to disk, validation, IPC both ways, engine) minus `engine` is the overhead the
 * service adds; the client's own time (job stream encoding, loopback transfer) is shown apart.
 * Run: `npx node bench/job-overhead.ts`.
 */
import { startConverter } from "../container/src/server.ts";
import { CONVERTER_JOB_PATH } from "../contract/index.ts";
import { mergePdfs } from "../engines/pdf/merge.ts";
import { heavyPdf, textPdf } from "../tests/container/fixtures.ts";
import { AUTH, jobBody, TEST_SECRET } from "../tests/container/http.ts";

const RUNS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const jobLog: string[] = [];
const converter = await startConverter({
  host: "127.0.0.1",
  port: 0,
  concurrency: 1,
  queueLimit: 0,
  secret: TEST_SECRET,
  log: (line) => jobLog.push(line),
  logJobs: true,
});

/** Medians of the service's own times (ms) from its job log lines. */
function serviceTimes(lines: readonly string[]): { request: number; runner: number; engine: number } {
  const field = (name: string) =>
    median(lines.map((line) => Number(new RegExp(`${name}=([\\d.]+)ms`).exec(line)?.[1] ?? Number.NaN)));
  return { request: field("request"), runner: field("runner"), engine: field("engine") };
}
try {
  console.log(`# Per-job overhead (${RUNS} runs each, median)`);
  console.log(
    "| job | input | engine in-process | engine in runner | runner round trip (IPC) | service: request | added by service | client round trip |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  const cases: [string, Uint8Array[]][] = [
    ["merge 2 × 1 page", [textPdf("a", 1), textPdf("b", 1)]],
    ["merge 2 × 50 pages", [textPdf("a", 50), textPdf("b", 50)]],
    ["merge 2 × 10 MB", [heavyPdf(10, 1), heavyPdf(10, 2)]],
  ];
  for (const [label, files] of cases) {
    const inputs = files.map((bytes, i) => ({ name: `${i}.pdf`, kind: "pdf" as const, bytes }));
    const direct: number[] = [];
    const service: number[] = [];
    jobLog.length = 0;
    for (let i = 0; i < RUNS; i++) {
      direct.push(await timed(() => mergePdfs(inputs, {}, () => {})));
      service.push(
        await timed(async () => {
          const body = await jobBody(
            {},
            files.map((bytes, n) => ({ name: `${n}.pdf`, kind: "pdf" as const, bytes })),
          );
          const response = await fetch(`${converter.url}${CONVERTER_JOB_PATH}/merge-pdf`, {
            method: "POST",
            headers: AUTH,
            body,
          });
          if (!response.ok) throw new Error(`job failed: ${response.status}`);
          await response.arrayBuffer();
        }),
      );
    }
    const size = files.reduce((sum, bytes) => sum + bytes.length, 0) / 1024 / 1024;
    const times = serviceTimes(jobLog);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `| ${label} | ${size.toFixed(2)} MB | ${ms(median(direct))} | ${ms(times.engine)} | ${ms(times.runner)} | ${ms(times.request)} | ${ms(times.request - times.engine)} | ${ms(median(service))} |`,
    );
  }
} finally {
  await converter.close();
}
