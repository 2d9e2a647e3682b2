/**
 * A page-rendering thread (worker_threads) with its own MuPDF instance: it opens the shared PDF
 * bytes, then takes page after page from the shared queue of the job (render-threads.ts) until
 * none is left, posting each JPEG as soon as it is encoded. While sharp encodes one page (on
 * libuv's threads), MuPDF already draws the next.
 */
import { parentPort } from "node:worker_threads";
import * as mupdf from "mupdf";
import { drainQueue, type PageQueue, type RenderedPage, setPageTreeCache } from "./render-page.ts";

// Dropped as in open-pdf.ts: MuPDF's messages can quote document content.
mupdf.setLog({ warning: () => {}, error: () => {} });

/** One job for this thread: the queue shared by every thread of the job, and the PDF. */
export interface RenderJob extends PageQueue {
  readonly id: number;
  readonly bytes: Uint8Array;
}

export type RenderReply =
  | ({ readonly type: "page"; readonly id: number; readonly position: number } & RenderedPage)
  | { readonly type: "done"; readonly id: number }
  | { readonly type: "error"; readonly id: number; readonly message: string };

async function run(job: RenderJob): Promise<void> {
  const port = parentPort;
  if (port === null) return;
  const doc = mupdf.Document.openDocument(job.bytes, "application/pdf");
  try {
    setPageTreeCache(doc, job.pageTreeCache);
    await drainQueue(doc, job, (position, page) => {
      const reply: RenderReply = { type: "page", id: job.id, position, ...page };
      port.postMessage(reply);
    });
  } finally {
    doc.destroy();
  }
}

parentPort?.on("message", (job: RenderJob) => {
  run(job).then(
    () => parentPort?.postMessage({ type: "done", id: job.id } satisfies RenderReply),
    (error: unknown) =>
      parentPort?.postMessage({
        type: "error",
        id: job.id,
        message: error instanceof Error ? error.message : String(error),
      } satisfies RenderReply),
  );
});
