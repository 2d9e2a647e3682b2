/**
 * Page previews drawn in the browser with pdf.js. pdf.js (and its worker) is loaded on first use
 * only, so it stays out of every screen that shows no previews. Each picked file is parsed once and
 * shared by every preview of it; renders run two at a time so scrolling a long document stays smooth.
 */
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from "pdfjs-dist";

type Pdfjs = typeof import("pdfjs-dist");

let library: Promise<Pdfjs> | null = null;

function loadPdfjs(): Promise<Pdfjs> {
  library ??= Promise.all([import("pdfjs-dist"), import("pdfjs-dist/build/pdf.worker.min.mjs?url")]).then(
    ([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      return pdfjs;
    },
  );
  // A failed chunk load is not cached: the next preview tries again.
  library.catch(() => {
    library = null;
  });
  return library;
}

interface OpenDocument {
  readonly task: Promise<PDFDocumentLoadingTask>;
  readonly document: Promise<PDFDocumentProxy>;
  users: number;
}

const documents = new Map<File, OpenDocument>();
/** Passwords the user typed for protected files, held in memory while the file is picked. */
const passwords = new WeakMap<File, string>();

/**
 * The password that opens `file` in the previews (pdf.js applies SASLprep as the server does), or
 * none. A document parsed before is dropped, so the next preview parses it with the password.
 */
export function setPdfPassword(file: File, password: string | null): void {
  if (password === null) passwords.delete(file);
  else passwords.set(file, password);
  const entry = documents.get(file);
  if (entry === undefined) return;
  documents.delete(file);
  entry.task.then((loading) => loading.destroy()).catch(() => undefined);
}

async function startLoading(file: File): Promise<PDFDocumentLoadingTask> {
  const pdfjs = await loadPdfjs();
  const data = new Uint8Array(await file.arrayBuffer());
  // Fonts and data the file lacks are drawn with built-in fallbacks, which is enough for a
  // preview. The one fetch is of the image decoders scanned pages need (JBIG2, CCITT fax,
  // JPEG 2000), same origin, asked for by the page on the worker's behalf.
  const password = passwords.get(file);
  return pdfjs.getDocument({
    data,
    useWorkerFetch: false,
    wasmUrl: import.meta.env.VITE_PDFJS_WASM_PATH,
    stopAtErrors: false,
    ...(password === undefined ? {} : { password }),
  });
}

/** The parsed document of `file`, shared while anyone holds it; give it back with `releasePdf`. */
export function acquirePdf(file: File): Promise<PDFDocumentProxy> {
  let entry = documents.get(file);
  if (entry === undefined) {
    const task = startLoading(file);
    entry = { task, document: task.then((loading) => loading.promise), users: 0 };
    documents.set(file, entry);
  }
  entry.users++;
  return entry.document;
}

export function releasePdf(file: File): void {
  const entry = documents.get(file);
  if (entry === undefined) return;
  entry.users--;
  // Let go a moment later: a preview that remounts at once (a reordered list) keeps the document.
  setTimeout(() => {
    if (entry.users > 0 || documents.get(file) !== entry) return;
    documents.delete(file);
    entry.task.then((loading) => loading.destroy()).catch(() => undefined);
  }, 1000);
}

const MAX_PARALLEL_RENDERS = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function inRenderSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Draws page `pageNumber` (1-based) of `file` into `canvas`, `cssWidth` CSS pixels wide at the
 * screen's pixel density. Resolves with the page's height/width ratio.
 */
export function renderPage(
  file: File,
  pageNumber: number,
  canvas: HTMLCanvasElement,
  cssWidth: number,
  signal: AbortSignal,
): Promise<number> {
  return inRenderSlot(async () => {
    signal.throwIfAborted();
    const document = await acquirePdf(file);
    try {
      const page = await document.getPage(pageNumber);
      const unscaled = page.getViewport({ scale: 1 });
      const density = Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale: (cssWidth * density) / unscaled.width });
      signal.throwIfAborted();
      canvas.width = Math.max(1, Math.round(viewport.width));
      canvas.height = Math.max(1, Math.round(viewport.height));
      const task = page.render({ canvas, viewport });
      const cancel = () => task.cancel();
      signal.addEventListener("abort", cancel, { once: true });
      try {
        await task.promise;
      } finally {
        signal.removeEventListener("abort", cancel);
        page.cleanup();
      }
      return unscaled.height / unscaled.width;
    } finally {
      releasePdf(file);
    }
  });
}
