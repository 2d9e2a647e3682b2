import { saslprep } from "@mongodb-js/saslprep";
import type * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";

/**
 * A password as PDF 2.0 (R6) hashes it: SASLprep (RFC 4013: non-ASCII spaces become spaces,
 * invisible characters are dropped, NFKC) of the text, then its UTF-8. Readers that follow the
 * standard (Acrobat) and qpdf then open the file with the same text the user typed, in any script.
 * A password SASLprep forbids (control characters, unassigned code points) is refused.
 */
export function pdfPassword(password: string, field = "password"): string {
  try {
    return saslprep(password);
  } catch {
    throw new AppError("INVALID_OPTIONS", "The password has characters a PDF password cannot hold.", {
      field,
      problem: "invalid",
    });
  }
}

/** Whether the document has an encryption dictionary (also one that opens without a password). */
export function isEncrypted(pdf: mupdf.PDFDocument): boolean {
  return !pdf.getTrailer().get("Encrypt").isNull();
}

/**
 * Authenticates `password` as the user or the owner password (MuPDF answers 2 or 4; 1 means "no
 * password needed", which says nothing of this one). The SASLprep form is tried first, then the
 * text as typed, for files made by writers that skip SASLprep. A wrong one is PDF_WRONG_PASSWORD:
 * nothing else is tried, so no password is ever guessed.
 */
export function authenticate(pdf: mupdf.PDFDocument, password: string, fileIndex: number): void {
  const prepared = pdfPassword(password);
  const candidates = prepared === password ? [password] : [prepared, password];
  if (candidates.some((candidate) => (pdf.authenticatePassword(candidate) & 6) !== 0)) return;
  throw new AppError("PDF_WRONG_PASSWORD", "The password does not open this PDF.", {
    file_index: fileIndex,
  });
}

/**
 * The document saved without encryption, same objects otherwise, less those nothing reaches
 * (garbage: a damaged leftover among them cannot be written). MuPDF's default save of an opened
 * encrypted file drops the encryption dictionary yet keeps the encrypted streams, so
 * `encrypt=none` is always named.
 */
export function decryptedBytes(pdf: mupdf.PDFDocument): Uint8Array {
  const buffer = pdf.saveToBuffer("encrypt=none,garbage");
  try {
    return buffer.asUint8Array().slice();
  } finally {
    buffer.destroy();
  }
}
