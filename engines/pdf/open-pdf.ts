import * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import { everyObject } from "./every-object.ts";

/** How many errors MuPDF has reported (a syntax error in an object it loads, …), ever. */
let reportedErrors = 0;

// MuPDF prints warnings and errors to stderr by default, and they can quote document content:
// the product never logs content, so they are dropped (failures still surface as exceptions);
// errors are only counted.
mupdf.setLog({
  warning: () => {},
  error: () => {
    reportedErrors++;
  },
});

/**
 * Opens one input PDF with the rules every PDF tool shares. MuPDF repairs broken cross-reference
 * tables on open; a repaired document is accepted, and `wasRepaired` tells the tool so its facts
 * can say it. Failures name the file by its position in the
 * request (`file_index`, 0-based) so the client can point at it without the file name being logged.
 */
export function openPdf(bytes: Uint8Array, fileIndex: number): mupdf.PDFDocument {
  const context = { file_index: fileIndex };
  const pdf = openPdfDocument(bytes, fileIndex);
  // MuPDF has already tried the empty user password: a document still locked needs a real one.
  if (pdf.needsPassword()) {
    pdf.destroy();
    throw new AppError("PDF_ENCRYPTED", "The PDF is protected by a password.", context);
  }
  let pages: number;
  try {
    pages = pdf.countPages();
  } catch {
    pdf.destroy();
    throw new AppError("PDF_DAMAGED", "The page tree of the PDF cannot be read.", context);
  }
  if (pages === 0) {
    const readable = hasReadablePageTree(pdf);
    pdf.destroy();
    // An unreadable page tree (e.g. PDF 2.0 Brotli streams, which MuPDF opens as 0 pages without
    // an error) is damage or an unsupported feature; a well-formed but empty tree has no pages.
    if (!readable) throw new AppError("PDF_DAMAGED", "The pages of the PDF cannot be read.", context);
    throw new AppError("PDF_NO_PAGES", "The PDF has no pages.", context);
  }
  return pdf;
}

/**
 * Opens the bytes as a PDF document and nothing more (PDF_DAMAGED when they are not one): an
 * encrypted document comes back still locked, for the tools that open it with a password.
 */
export function openPdfDocument(bytes: Uint8Array, fileIndex: number): mupdf.PDFDocument {
  const context = { file_index: fileIndex };
  let document: mupdf.Document;
  try {
    document = mupdf.Document.openDocument(bytes, "application/pdf");
  } catch {
    throw new AppError("PDF_DAMAGED", "The PDF cannot be read, even after repair.", context);
  }
  const pdf = document.asPDF();
  if (pdf === null) {
    document.destroy();
    throw new AppError("PDF_DAMAGED", "The file is not a PDF document.", context);
  }
  return pdf;
}

/**
 * Loads every object of the document, so a cross-reference entry that points at the wrong place
 * makes MuPDF rebuild the table now, not while saving: a rebuild reloads the objects from the
 * file and drops the changes made to them in memory (measured: a corpus file whose object 32 was
 * misplaced came out of Add watermark, Add page numbers and Organize unchanged). An object that
 * cannot be loaded is left to the save, which reports it. About 12 µs an object. Loaded by asking
 * whether it is a stream, not with resolve(): a stream resolved through MuPDF.js whose dictionary
 * refers to another object came out of the compacting save as a dictionary without its stream
 * (endchar.pdf's form XObject, issue13242.pdf's CMap: the page lost its text). Returns how many
 * objects MuPDF could not parse (it reports an error and takes each for null).
 */
export function loadEveryObject(pdf: mupdf.PDFDocument): number {
  const before = reportedErrors;
  for (const { object } of everyObject(pdf)) {
    try {
      object.isStream();
    } catch (error) {
      if (isOutOfMemory(error)) throw error;
    }
  }
  return reportedErrors - before;
}

/**
 * Whether MuPDF had to rebuild the document's cross-reference table (on open, or while counting
 * the pages, which openPdf does). Tools report it so users know the output came from a repair.
 */
export function wasRepaired(pdf: mupdf.PDFDocument): boolean {
  try {
    return pdf.wasRepaired();
  } catch {
    return false;
  }
}

function hasReadablePageTree(pdf: mupdf.PDFDocument): boolean {
  try {
    const tree = pdf.getTrailer().get("Root", "Pages");
    return tree.isDictionary() && tree.get("Count").isNumber();
  } catch {
    return false;
  }
}

/** MuPDF reports allocation failures as errors whose message names memory. */
export function isOutOfMemory(error: unknown): boolean {
  return (
    error instanceof Error && /out of memory|malloc|cannot allocate|allocation failed/i.test(error.message)
  );
}
