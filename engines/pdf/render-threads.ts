/**
 * Renders the pages of one PDF on several threads: the calling thread and worker threads
 * (render-worker.ts), each with its own MuPDF instance, take pages from one shared queue, so a
 * slow page never holds the others back. Workers are kept between jobs (starting one and loading
 * MuPDF costs ~150 ms) and never keep the process alive while idle.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import { isOutOfMemory } from "./open-pdf.ts";
import { drainQueue, MAX_PAGE_PIXELS, type PageQueue, pageScale, type RenderedPage } from "./render-page.ts";
import type { RenderJob, RenderReply } from "./render-worker.ts";

const WORKER_SCRIPT = new URL("./render-worker.ts", import.meta.url);

/**
 * Memory the extra render threads of one job may take, within the job memory cap (1024 MB by
 * default, container/src/limits.ts) beside the runner's own ~130 MB and the collected JPEGs.
 */
const THREAD_MEMORY_BUDGET = 448 * 1024 * 1024;
/**
 * What one more render thread costs, measured (peak resident, 12 Letter pages): +76 MB at 150 dpi
 * (2.1 MP pages), +190 MB at 300 dpi (8.4 MP): ~64 MB for the thread and its MuPDF instance, and
 * ~15 bytes per pixel of the largest page (see MAX_PAGE_PIXELS).
 */
const THREAD_BASE_BYTES = 64 * 1024 * 1024;
const BYTES_PER_PIXEL = 15;

const idle: Worker[] = [];
let nextJobId = 1;

/** Pixels of each distinct page of `pageIndexes` at `dpi` (as rendered: capped at MAX_PAGE_PIXELS). */
export function pagePixels(
  doc: mupdf.Document,
  pageIndexes: readonly number[],
  dpi: number,
): Map<number, number> {
  const pixels = new Map<number, number>();
  for (const index of pageIndexes) {
    if (pixels.has(index)) continue;
    const page = doc.loadPage(index);
    try {
      const bounds = page.getBounds();
      const { scale } = pageScale(bounds, dpi);
      const area = Math.abs((bounds[2] - bounds[0]) * (bounds[3] - bounds[1])) * scale * scale;
      pixels.set(index, Math.min(MAX_PAGE_PIXELS, area));
    } finally {
      page.destroy();
    }
  }
  return pixels;
}

/**
 * How many threads (the caller's included) render `pages` pages whose largest has `largestPixels`:
 * one per core, no more than pages, and no more extra threads than the memory budget holds with
 * each one's copy of the document (`fileBytes`) and its largest page.
 */
export function renderThreadCount(pages: number, largestPixels: number, fileBytes: number): number {
  const cores = availableParallelism();
  if (cores < 2 || pages < 2) return 1;
  const perThread = THREAD_BASE_BYTES + fileBytes + largestPixels * BYTES_PER_PIXEL;
  const extra = Math.floor(THREAD_MEMORY_BUDGET / perThread);
  return Math.max(1, Math.min(cores, pages, 1 + extra));
}

/**
 * Renders `pageIndexes` (0-based, in output order) of the PDF `bytes`, already open as `doc` in this
 * thread, with `threads` threads. `onPage` hears of each page as it is done, in any order; the
 * result lists the pages in the order asked.
 */
export async function renderPages(
  doc: mupdf.Document,
  bytes: Uint8Array,
  pageIndexes: readonly number[],
  options: { readonly dpi: number; readonly threads: number; readonly pageTreeCache: boolean },
  onPage: (done: number) => void,
): Promise<RenderedPage[]> {
  const results: RenderedPage[] = new Array(pageIndexes.length);
  let done = 0;
  const collect = (position: number, page: RenderedPage) => {
    results[position] = page;
    done++;
    onPage(done);
  };
  const shared = (length: number) => new Int32Array(new SharedArrayBuffer(length * 4));
  const queue: PageQueue = {
    pages: shared(pageIndexes.length),
    next: shared(1),
    dpi: options.dpi,
    pageTreeCache: options.pageTreeCache,
  };
  queue.pages.set(pageIndexes);
  const workers = Array.from({ length: options.threads - 1 }, takeWorker);
  const sharedBytes = workers.length === 0 ? bytes : copyToShared(bytes);
  const stop = () => Atomics.store(queue.next, 0, pageIndexes.length);
  const runs = workers.map((worker) =>
    runOnWorker(worker, { ...queue, id: nextJobId++, bytes: sharedBytes }, collect).then(
      () => giveBack(worker),
      (error: unknown) => {
        // Stops the other threads taking pages: they finish the one they draw and return.
        stop();
        void worker.terminate();
        throw error;
      },
    ),
  );
  const own = drainQueue(doc, queue, collect).catch((error: unknown) => {
    stop();
    throw error;
  });
  // Every thread has finished with the job before it fails, so no worker is handed on mid-job.
  const outcomes = await Promise.allSettled([own, ...runs]);
  const failed = outcomes.find((outcome) => outcome.status === "rejected");
  if (failed !== undefined) throw asRenderError(failed.reason);
  return results;
}

/** A Letter page at 150 dpi, the default resolution: what warmRenderThreads sizes for. */
const TYPICAL_PAGE_PIXELS = 8.5 * 11 * 150 * 150;

/**
 * Starts, idle, the render threads a typical job would use (a Letter page at 150 dpi from a 1 MB
 * file, renderThreadCount), so that loading MuPDF in them and compiling its code happens before the
 * first job rather than during it: the first 14-page job of a fresh process took 847–910 ms with
 * them warmed, 1243–1246 ms without (later jobs 450–540 ms either way).
 */
export function warmRenderThreads(): void {
  const wanted = warmRenderThreadCount();
  while (idle.length < wanted) giveBack(new Worker(WORKER_SCRIPT));
}

/** Render threads started and idle, kept for the next job (for tests and diagnostics). */
export function idleRenderThreads(): number {
  return idle.length;
}

/** How many threads warmRenderThreads starts (the job's own thread not counted). */
export function warmRenderThreadCount(): number {
  return renderThreadCount(Number.MAX_SAFE_INTEGER, TYPICAL_PAGE_PIXELS, 1024 * 1024) - 1;
}

function copyToShared(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

function takeWorker(): Worker {
  const worker = idle.pop() ?? new Worker(WORKER_SCRIPT);
  worker.removeAllListeners("exit").removeAllListeners("error");
  worker.ref();
  return worker;
}

function giveBack(worker: Worker): void {
  if (idle.length >= availableParallelism()) {
    void worker.terminate();
    return;
  }
  // A worker that fails or dies while idle is dropped from the pool (an unheard error event
  // would be thrown in this thread).
  worker.once("error", () => void worker.terminate());
  worker.once("exit", () => idle.splice(idle.indexOf(worker) >>> 0, 1));
  worker.unref();
  idle.push(worker);
}

function runOnWorker(
  worker: Worker,
  job: RenderJob,
  collect: (position: number, page: RenderedPage) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.on("message", (reply: RenderReply) => {
      if (reply.id !== job.id) return;
      if (reply.type === "page") collect(reply.position, reply);
      else if (reply.type === "done") resolve();
      else reject(new Error(reply.message));
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`render thread stopped (exit code ${code})`)));
    worker.postMessage(job);
  }).finally(() => {
    worker.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");
  });
}

function asRenderError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (isOutOfMemory(error))
    return new AppError("JOB_OUT_OF_MEMORY", "The pages needed more memory than allowed.");
  return error;
}
