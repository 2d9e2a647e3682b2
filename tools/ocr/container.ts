/**
 * PDF OCR with Tesseract and MuPDF.js (engines/ocr/ocr-pdf.ts): the PDF, or the image made a PDF
 * (image-pages.ts), gets an invisible text layer on every page without text.
 */
import { AppError, type LanguageCode } from "../../contract/index.ts";
import { ocrDocument } from "../../engines/ocr/ocr-pdf.ts";
import { openPdf, wasRepaired } from "../../engines/pdf/open-pdf.ts";
import { tooManyPages } from "../../engines/pdf/page-limit.ts";
import { asPdfJobError, savePdf } from "../../engines/pdf/write-pdf.ts";
import { engineFor } from "../../engines/types.ts";
import { imageDocument } from "./image-pages.ts";
import tool, { MAX_OCR_PAGES } from "./tool.ts";

/** Share of the progress scale spent recognising pages; the rest is the final save. */
const RECOGNISE_PROGRESS = 97;

export default engineFor(tool, async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No file to recognise.");
  const doc = input.kind === "pdf" ? openPdf(input.bytes, 0) : await imageDocument(input.bytes);
  try {
    // A PDF's pages were counted before the tool started (the declaration's maxPages); an image's
    // (a multi-page TIFF) are known once it is a document.
    if (doc.countPages() > MAX_OCR_PAGES) throw tooManyPages(0, doc.countPages(), MAX_OCR_PAGES);
    const languages = languageList(options.languages);
    const summary = await ocrDocument(doc, { languages, redo: options.redo_text }, (percent) =>
      progress((percent * RECOGNISE_PROGRESS) / 100),
    );
    // Only new objects are written out compressed: the pages' images keep their bytes.
    const bytes = savePdf(doc, "compress,garbage=compact");
    progress(100);
    return {
      bytes,
      facts: {
        pages: doc.countPages(),
        pages_recognised: summary.recognised.length,
        pages_with_text: summary.kept,
        pages_turned: summary.turned,
        words: summary.words,
        ...(input.kind === "pdf" && wasRepaired(doc) ? { repaired: true } : {}),
      },
    };
  } catch (error) {
    throw asPdfJobError(error, "text recognition", { file_index: 0 });
  } finally {
    doc.destroy();
  }
});

/** The distinct codes of the `languages` field, in the order given. */
function languageList(field: string | undefined): LanguageCode[] {
  const codes = (field ?? "").split(",").map((code) => code.trim());
  return [...new Set(codes.filter((code) => code !== ""))] as LanguageCode[];
}
