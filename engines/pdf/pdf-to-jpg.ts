/**
 * PDF to JPG (tools/pdf-to-jpg): convert-pages renders the selected pages (spec §5 ranges, in the
 * order given) on as many threads as cores and memory allow; extract-images takes the embedded
 * images out (extract-images.ts). One JPG is answered as it is, several as a ZIP of
 * `<name>-page-<n>.jpg` files.
 */
import type * as mupdf from "mupdf";
import { AppError, type JobFacts, pagesOf } from "../../contract/index.ts";
import { baseName } from "../file-name.ts";
import type { EngineHandler, EngineInput, EngineOutput, ProgressReporter } from "../types.ts";
import { type ZipEntry, zipFiles } from "../zip.ts";
import { extractImages } from "./extract-images.ts";
import { openPdf, wasRepaired } from "./open-pdf.ts";
import { selectPageRanges } from "./page-selection.ts";
import { setPageTreeCache, wantsPageTreeCache } from "./render-page.ts";
import { pagePixels, renderPages, renderThreadCount } from "./render-threads.ts";
import { asPdfJobError } from "./write-pdf.ts";

/**
 * Most pixels one job renders: its JPEGs are held until the ZIP is written, and the ZIP is a second
 * copy. Text pages measured 0.15–0.25 bytes a pixel at quality 85 (less at the 75 used now) and photographs up to 0.5, so
 * 1.2 gigapixels (about 570 Letter pages at 150 dpi, 140 at 300 dpi) stays near 300 MB each.
 */
export const MAX_JOB_PIXELS = 1_200_000_000;

export interface PdfToJpgOptions {
  readonly conversion_mode: "convert-pages" | "extract-images";
  readonly page_ranges?: string | undefined;
  readonly dpi: number;
}

export const pdfToJpg: EngineHandler<PdfToJpgOptions> = async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No PDF to convert.");
  const doc = openPdf(input.bytes, 0);
  try {
    const repaired: JobFacts = wasRepaired(doc) ? { repaired: true } : {};
    const output =
      options.conversion_mode === "extract-images"
        ? await extractMode(doc, input, progress)
        : await convertMode(doc, input, options, progress);
    return { ...output, facts: { ...output.facts, ...repaired } };
  } catch (error) {
    // MuPDF's errors on a file that opened (a page-tree cycle) are damage; program errors INTERNAL.
    throw asPdfJobError(error, "conversion", { file_index: 0 });
  } finally {
    doc.destroy();
  }
};

async function convertMode(
  doc: mupdf.PDFDocument,
  input: EngineInput,
  options: PdfToJpgOptions,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  const pageCount = doc.countPages();
  const pages = pagesOf(selectPageRanges(options.page_ranges, pageCount));
  const indexes = pages.map((page) => page - 1);
  const pageTreeCache = wantsPageTreeCache(new Set(indexes).size, pageCount);
  setPageTreeCache(doc, pageTreeCache);
  const pixels = pagePixels(doc, indexes, options.dpi);
  let total = 0;
  for (const index of indexes) total += pixels.get(index) ?? 0;
  if (total > MAX_JOB_PIXELS) {
    throw new AppError("TOO_MANY_PAGES", "The selected pages are too many at this resolution.", {
      file_index: 0,
      pages: pages.length,
      dpi: options.dpi,
    });
  }
  const largest = Math.max(...pixels.values());
  const threads = renderThreadCount(pages.length, largest, input.bytes.byteLength);
  const rendered = await renderPages(
    doc,
    input.bytes,
    indexes,
    { dpi: options.dpi, threads, pageTreeCache },
    (done) => progress((done / pages.length) * 100),
  );
  const reduced = rendered.filter((page) => page.reduced).length;
  const facts: JobFacts = {
    pages: pageCount,
    pages_rendered: pages.length,
    dpi: options.dpi,
    ...(reduced > 0 ? { pages_reduced: reduced } : {}),
  };
  const stem = baseName(input.name);
  const entries = rendered.map((page, i) => ({ name: `${stem}-page-${pages[i]}.jpg`, bytes: page.jpeg }));
  return packed(entries, `${stem}-pages.zip`, facts);
}

async function extractMode(
  doc: mupdf.PDFDocument,
  input: EngineInput,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  const pageCount = doc.countPages();
  const { images, counts } = await extractImages(doc, (done) => progress((done / pageCount) * 100));
  if (images.length === 0) {
    throw new AppError("PDF_NO_IMAGES", "The PDF contains no images to extract.", {
      file_index: 0,
      small_images: counts.small,
    });
  }
  const stem = baseName(input.name);
  const perPage = new Map<number, number>();
  const entries = images.map((image) => {
    const count = (perPage.get(image.page) ?? 0) + 1;
    perPage.set(image.page, count);
    const suffix = count === 1 ? "" : `-${count}`;
    return { name: `${stem}-page-${image.page}${suffix}.jpg`, bytes: image.jpeg };
  });
  const facts: JobFacts = {
    pages: pageCount,
    images_extracted: images.length,
    images_original: images.filter((image) => image.original).length,
    ...(counts.small > 0 ? { small_images_skipped: counts.small } : {}),
    ...(counts.duplicates > 0 ? { duplicate_images_skipped: counts.duplicates } : {}),
    ...(counts.tooLarge > 0 ? { large_images_skipped: counts.tooLarge } : {}),
    ...(counts.unreadable > 0 ? { unreadable_images_skipped: counts.unreadable } : {}),
  };
  return packed(entries, `${stem}-images.zip`, facts);
}

/** One JPG as it is, several in a ZIP named `zipName`. */
function packed(entries: readonly ZipEntry[], zipName: string, facts: JobFacts): EngineOutput {
  const [only] = entries;
  if (entries.length === 1 && only !== undefined)
    return { bytes: only.bytes, facts, kind: "jpeg", name: only.name };
  return { bytes: zipFiles(entries), facts, kind: "zip", name: zipName };
}
