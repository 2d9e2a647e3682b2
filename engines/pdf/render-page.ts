/**
 * One PDF page drawn to a JPEG: MuPDF.js rasterises, sharp (libjpeg-turbo) encodes. Measured on
 * text and image pages at 150 dpi: MuPDF's own `Pixmap.asJPEG` took 260–370 ms a page against
 * 30–46 ms for sharp from the raw RGB, at about the same size for the same quality; MozJPEG saved
 * 20 % more bytes but took 600–700 ms a page. Shared by the render threads and the single-page path.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { withBoundedTiling } from "./tiling-patterns.ts";

/** JPEG quality of extracted images re-encoded one by one: the "medium" preset (spec §9). */
export const JPEG_QUALITY = 85;
/**
 * JPEG quality of rendered pages: libjpeg's and pdftoppm's default. Measured at 150 dpi on text,
 * paper and scan pages of the corpus: the same bytes as `pdftoppm -jpeg` (±3 %) and the same SSIM
 * against each renderer's own lossless output (0.9983–1.0000, within ±0.0002), where quality 85
 * made 17–22 % more bytes for +0.0002 SSIM: bytes every later step (ZIP, storage, download) pays.
 */
export const PAGE_JPEG_QUALITY = 75;
/**
 * Most pixels one page may have. A render thread measured ~15 bytes a pixel of its largest page at
 * its peak (pixmap and draw buffers in WASM memory, which never shrinks, plus copies for the
 * encoder awaiting garbage collection): 40 MP (A0 at 150 dpi, A2 at 300 dpi) peaks near 600 MB,
 * inside a job's 1024 MB. Larger pages are drawn at the highest resolution that fits.
 */
export const MAX_PAGE_PIXELS = 40_000_000;

/** Scale from PDF points (1/72 inch) to pixels for `dpi`, lowered when the page would be too large. */
export function pageScale(bounds: mupdf.Rect, dpi: number): { scale: number; reduced: boolean } {
  const wanted = dpi / 72;
  const area = Math.abs((bounds[2] - bounds[0]) * (bounds[3] - bounds[1])) * wanted * wanted;
  if (area <= MAX_PAGE_PIXELS) return { scale: wanted, reduced: false };
  return { scale: wanted * Math.sqrt(MAX_PAGE_PIXELS / area), reduced: true };
}

export interface RenderedPage {
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Drawn below the asked resolution because of MAX_PAGE_PIXELS. */
  readonly reduced: boolean;
}

/**
 * Rasterises page `index` (0-based) of `doc` on white, with annotations and form widgets as a
 * viewer shows them (tiling patterns without a usable step drawn with bounded steps:
 * tiling-patterns.ts), and starts its JPEG encoding. The pixels are copied out of WASM memory before
 * the promise is returned, so the caller may draw the next page while this one encodes.
 */
export function renderPage(doc: mupdf.Document, index: number, dpi: number): Promise<RenderedPage> {
  const page = doc.loadPage(index);
  let pixmap: mupdf.Pixmap | undefined;
  try {
    const { scale, reduced } = pageScale(page.getBounds(), dpi);
    pixmap = withBoundedTiling(doc, index, scale, () =>
      page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true),
    );
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    return encodePage(copyPixels(pixmap), { width, height, channels: 3 }, scale * 72).then((jpeg) => ({
      jpeg,
      width,
      height,
      reduced,
    }));
  } finally {
    pixmap?.destroy();
    page.destroy();
  }
}

interface PixelSize {
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
}

/**
 * Baseline JPEG of packed grey (1 channel) or sRGB (3 channels) pixels, with optimised Huffman
 * tables (a few percent smaller, at about twice the encoding time): for images kept one by one.
 */
export async function encodePixels(pixels: Buffer, size: PixelSize): Promise<Uint8Array> {
  const jpeg = await sharp(pixels, { raw: size }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
}

/**
 * A rendered page as a baseline JPEG with its resolution in the JFIF header. The encoder, not the
 * drawing, is what a page costs: at 150 dpi (2.2 MP) MuPDF draws a text page in ~12 ms, libjpeg-turbo
 * with optimised Huffman tables took ~27 ms and the sRGB tagging of `withMetadata` ~12 ms more, while
 * the standard tables take ~11 ms for 6–12 % more bytes (measured on the corpus's manuals and books).
 * Like pdftoppm, pages get the standard tables and no profile (an untagged JPEG is read as sRGB).
 */
export async function encodePage(pixels: Buffer, size: PixelSize, dpi: number): Promise<Uint8Array> {
  const jpeg = await sharp(pixels, { raw: size })
    .jpeg({ quality: PAGE_JPEG_QUALITY, optimiseCoding: false })
    .toBuffer();
  return withJfifDensity(new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength), dpi);
}

/**
 * Records `dpi` as the JPEG's density: a JFIF APP0 segment (units: dots per inch) right after SOI,
 * as libjpeg writes it (libvips leaves it out).
 */
export function withJfifDensity(jpeg: Uint8Array, dpi: number): Uint8Array {
  const density = Math.max(1, Math.min(0xffff, Math.round(dpi)));
  const app0 = new Uint8Array([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
  const view = new DataView(app0.buffer);
  view.setUint16(12, density);
  view.setUint16(14, density);
  const out = new Uint8Array(jpeg.length + app0.length);
  out.set(jpeg.subarray(0, 2));
  out.set(app0, 2);
  out.set(jpeg.subarray(2), 2 + app0.length);
  return out;
}

/** The samples of `pixmap` copied out of WASM memory (which a later allocation may move). */
export function copyPixels(pixmap: mupdf.Pixmap): Buffer {
  const view = pixmap.getPixels();
  return Buffer.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
}

/** Pages of one job shared by the threads that render it: each takes the next position in turn. */
export interface PageQueue {
  /** 0-based page indexes in output order. */
  readonly pages: Int32Array;
  /** Next position of `pages` to take (Atomics on shared memory). */
  readonly next: Int32Array;
  readonly dpi: number;
  /** See wantsPageTreeCache. */
  readonly pageTreeCache: boolean;
}

/**
 * Whether to index the whole page tree before finding pages: worth it when many of the document's
 * pages are drawn. Measured on a 2415-page manual: the index takes 440–700 ms (in every thread),
 * after which a page is found in ~0.4 ms; without it the first page is found in 4 ms and the next
 * in ~2 ms each.
 */
export function wantsPageTreeCache(selectedPages: number, documentPages: number): boolean {
  return selectedPages * 5 > documentPages;
}

/** Applies the choice of wantsPageTreeCache to `doc` (before any page is loaded). */
export function setPageTreeCache(doc: mupdf.Document, enabled: boolean): void {
  doc.asPDF()?.setPageTreeCache(enabled);
}

/** Takes positions from the job's queue and renders them; `onPage` receives each page in turn. */
export async function drainQueue(
  doc: mupdf.Document,
  job: PageQueue,
  onPage: (position: number, page: RenderedPage) => void,
): Promise<void> {
  let encoding: Promise<void> = Promise.resolve();
  for (;;) {
    const position = Atomics.add(job.next, 0, 1);
    if (position >= job.pages.length) break;
    const rendered = renderPage(doc, job.pages[position] ?? 0, job.dpi);
    await encoding;
    encoding = rendered.then((page) => onPage(position, page));
  }
  await encoding;
}
