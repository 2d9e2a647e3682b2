import { AppError } from "../../contract/index.ts";
import { openPdf, openPdfDocument } from "../../engines/pdf/open-pdf.ts";
import { authenticate, decryptedBytes, isEncrypted } from "../../engines/pdf/pdf-password.ts";
import { asPdfJobError } from "../../engines/pdf/write-pdf.ts";
import type { EngineHandler, EngineInput } from "../../engines/types.ts";

/**
 * Removes the encryption of one PDF. One that opens without a password (the empty user password:
 * an owner password restricting printing, copying or editing) is unlocked whatever password was
 * typed, or none, as every viewer opens it; one that needs its password (user, or owner) is opened
 * with it: none is PDF_ENCRYPTED, a wrong one PDF_WRONG_PASSWORD. The output keeps every object,
 * written without encryption, and is checked to open with the shared rules of the PDF tools.
 */
export const unlockPdf: EngineHandler<{ readonly password?: string | undefined }> = async (
  inputs,
  options,
  progress,
) => {
  const [input] = inputs;
  if (input === undefined) throw new Error("unlock needs one PDF");
  const context = { file_index: 0 };
  const pdf = openPdfDocument(input.bytes, 0);
  let bytes: Uint8Array;
  try {
    if (!isEncrypted(pdf)) {
      if (!decryptedWithoutPassword(input))
        throw new AppError("PDF_NOT_ENCRYPTED", "The PDF is not encrypted.", context);
      // The converter opened it with the empty password already (qpdf: open-without-password.ts).
      bytes = input.bytes;
    } else {
      // MuPDF has tried the empty user password: a PDF still locked needs the one typed.
      if (pdf.needsPassword()) {
        if (!options.password)
          throw new AppError(
            "PDF_ENCRYPTED",
            "The PDF is protected by a password: type it to unlock it.",
            context,
          );
        authenticate(pdf, options.password, 0);
      }
      progress(30);
      bytes = decryptedBytes(pdf);
    }
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

/** Whether the converter's preparation decrypted the upload with the empty password (not a repair). */
function decryptedWithoutPassword(input: EngineInput): boolean {
  if (input.uploaded === undefined) return false;
  try {
    const upload = openPdfDocument(input.uploaded, 0);
    try {
      return isEncrypted(upload);
    } finally {
      upload.destroy();
    }
  } catch {
    return false;
  }
}
