/**
 * What the converter's process isolation costs per job: the same merge run in-process (engine
 * only) and through the HTTP service. From the service's job log: `request` (admission to result:
 * upload, multipart parse, validation, IPC both ways, engine) minus `engine` is the overhead the
 * service adds; the client's own time (FormData encoding, loopback transfer) is shown apart.
 * Run: `npx node bench/job-overhead.ts`.
 */
import * as mupdf from "mupdf";
import { startConverter } from "../container/src/server.ts";
import { CONVERTER_JOB_PATH } from "../contract/index.ts";
import { mergePdfs } from "../engines/pdf/merge.ts";

const RUNS = 30;

function textPdf(pages: number, label: string): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  for (let i = 0; i < pages; i++) {
    const resources = doc.addObject({ Font: { F1: font } });
    doc.insertPage(
      -1,
      doc.addPage([0, 0, 595, 842], 0, resources, `BT /F1 24 Tf 72 720 Td (${label} ${i}) Tj ET`),
    );
  }
  return doc.saveToBuffer("compress").asUint8Array().slice();
}

/** A one-page PDF carrying `megabytes` of incompressible image data: for the cost of moving bytes. */
function heavyPdf(megabytes: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const side = Math.floor(Math.sqrt(megabytes * 1024 * 1024));
  const pixels = new Uint8Array(side * side).map((_, i) => (i * 2654435761) >>> 24);
  const image = doc.addRawStream(pixels, {
    Type: "XObject",
    Subtype: "Image",
    Width: side,
    Height: side,
    ColorSpace: "DeviceGray",
    BitsPerComponent: 8,
    Filter: "FlateDecode",
  });
  const resources = doc.addObject({ XObject: { Im1: image } });
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "q 595 0 0 842 0 0 cm /Im1 Do Q"));
  return doc.saveToBuffer("").asUint8Array().slice();
}

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
    ["merge 2 × 1 page", [textPdf(1, "a"), textPdf(1, "b")]],
    ["merge 2 × 50 pages", [textPdf(50, "a"), textPdf(50, "b")]],
    ["merge 2 × 10 MB", [heavyPdf(10), heavyPdf(10)]],
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
          const form = new FormData();
          form.append("options", "{}");
          for (const [n, bytes] of files.entries())
            form.append("files", new Blob([new Uint8Array(bytes)]), `${n}.pdf`);
          const response = await fetch(`${converter.url}${CONVERTER_JOB_PATH}/merge-pdf`, {
            method: "POST",
            body: form,
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
