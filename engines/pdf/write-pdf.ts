import { deflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import { everyObject } from "./every-object.ts";
import { isOutOfMemory, openPdfDocument } from "./open-pdf.ts";

/**
 * The document saved with MuPDF's `options`, copied out of WASM memory. A save that does not choose
 * its encryption writes none: MuPDF's default for a document opened encrypted (one that opens with
 * the empty password, as many "protected" files do) drops the encryption dictionary yet keeps the
 * streams encrypted, which left a compressed file with 0 readable pages.
 */
export function savePdf(document: mupdf.PDFDocument, options: string): Uint8Array {
  const buffer = document.saveToBuffer(withEncryption(options));
  try {
    // The buffer views WASM memory that is freed with it: copy out before destroying.
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}

/** The empty string deflated (zlib): a stream whose data decodes to nothing. */
const DEFLATED_NOTHING = new Uint8Array(deflateSync(new Uint8Array(0)));

/**
 * Before an encrypted save: every stream that holds no bytes gets the deflated empty string as
 * its data (FlateDecode), which decodes to the same nothing. MuPDF's encrypted save writes an
 * empty stream with the Length of its encrypted form (32 for AES-256) and none of its bytes, a
 * stream readers must recover and that decrypts to garbage (the wide corpus's
 * GHOSTSCRIPT-698804-1-fuzzed.pdf has an empty page content; Unlock's output of it was damaged).
 * Only streams whose Length is not positive are read.
 */
export function fillEmptyStreams(document: mupdf.PDFDocument): void {
  for (const { object } of everyObject(document)) {
    try {
      if (!object.isStream()) continue;
      const length = object.get("Length");
      if (length.isNumber() && length.asNumber() > 0) continue;
      if (object.readRawStream().getLength() !== 0) continue;
      object.writeRawStream(DEFLATED_NOTHING);
      object.put("Filter", document.newName("FlateDecode"));
      object.delete("DecodeParms");
    } catch (error) {
      // An object that cannot be read is left to the save, which reports it.
      if (isOutOfMemory(error)) throw error;
    }
  }
}

/** `options` with `encrypt=none` added when they do not name an encryption (text or JSON form). */
export function withEncryption(options: string): string {
  if (/"?encrypt"?\s*[=:]/.test(options)) return options;
  if (options.trimStart().startsWith("{")) return JSON.stringify({ ...JSON.parse(options), encrypt: "none" });
  return options === "" ? "encrypt=none" : `${options},encrypt=none`;
}

/**
 * MuPDF's C layer throws plain errors; such a failure on a file that opened is damage inside it
 * (or memory). A TypeError, RangeError or ReferenceError comes from JavaScript, ours or MuPDF.js's
 * (a method called on a missing object), a WebAssembly trap from MuPDF itself: a defect of the
 * program, answered INTERNAL and logged with its name, never blamed on the file. `job` names the work in the English message ("merge").
 */
export function asPdfJobError(error: unknown, job: string, context: Record<string, number>): AppError {
  if (error instanceof AppError) return error;
  // MuPDF's own text goes to the log line only (detail), never to the API message.
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (isOutOfMemory(error))
    return new AppError("JOB_OUT_OF_MEMORY", `The ${job} ran out of memory.`, context, detail);
  if (isProgramError(error)) return new AppError("INTERNAL", `The ${job} failed.`, context, detail);
  return new AppError("PDF_DAMAGED", "A PDF has damaged content that cannot be copied.", context, detail);
}

/**
 * Errors raised by JavaScript code rather than reported by MuPDF about the file, and WebAssembly
 * traps (MuPDF's own defect, or a heap corrupted earlier: never the file's fault).
 */
export function isProgramError(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError ||
    error instanceof WebAssembly.RuntimeError
  );
}

/**
 * The unlocked PDF in `bytes` changed by `edit` and saved without compression (objects written as
 * they are, only the edited ones differ): the converter's repairs of inputs. Undefined when it does
 * not open, is locked, or `edit` changes nothing (returns false) or fails.
 */
export function editedPdf(
  bytes: Uint8Array,
  edit: (pdf: mupdf.PDFDocument) => boolean,
): Uint8Array | undefined {
  let pdf: mupdf.PDFDocument;
  try {
    pdf = openPdfDocument(bytes, 0);
  } catch {
    return undefined; // openPdf names the damage when the tool opens it.
  }
  try {
    return !pdf.needsPassword() && edit(pdf) ? savePdf(pdf, "") : undefined;
  } catch (error) {
    if (isOutOfMemory(error)) throw error;
    return undefined;
  } finally {
    pdf.destroy();
  }
}
