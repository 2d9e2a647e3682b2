import { AppError } from "../../contract/index.ts";
import { openPdf, openPdfDocument } from "../../engines/pdf/open-pdf.ts";
import { authenticate, decryptedBytes, isEncrypted } from "../../engines/pdf/pdf-password.ts";
import { asPdfJobError } from "../../engines/pdf/write-pdf.ts";
import type { EngineHandler } from "../../engines/types.ts";

/**
 * Removes the encryption of one PDF opened with its password: the user password, or the owner
 * password of a PDF that opens without one (permissions only). The output keeps every object,
 * written without encryption, and is checked to open with the shared rules of the PDF tools.
 */
export const unlockPdf: EngineHandler<{ readonly password: string }> = async (inputs, options, progress) => {
  const [input] = inputs;
  if (input === undefined) throw new Error("unlock needs one PDF");
  const context = { file_index: 0 };
  const pdf = openPdfDocument(input.bytes, 0);
  let bytes: Uint8Array;
  try {
    if (!isEncrypted(pdf)) throw new AppError("PDF_NOT_ENCRYPTED", "The PDF is not encrypted.", context);
    authenticate(pdf, options.password, 0);
    progress(30);
    bytes = decryptedBytes(pdf);
  } catch (error) {
    throw asPdfJobError(error, "unlock", context);
  } finally {
    pdf.destroy();
  }
  progress(80);
  const unlocked = openPdf(bytes, 0);
  try {
    return { bytes, facts: { pages: unlocked.countPages() } };
  } finally {
    unlocked.destroy();
  }
};
