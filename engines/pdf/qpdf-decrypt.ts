import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineInput } from "../types.ts";
import { openPdfDocument } from "./open-pdf.ts";

/** qpdf exits 0 when clean and 3 with warnings only; either way the output is written. */
const QPDF_WROTE = new Set([0, 3]);
const QPDF_TIMEOUT_MS = 60_000;

/**
 * Input PDFs that MuPDF finds locked although no password was given are handed to qpdf with the
 * empty password: some encryption MuPDF does not open is meant to open without one (an AES-256
 * file whose empty password is the owner's, as Bluebeam writes; a broken encryption dictionary a
 * repair finds on a file whose objects are not encrypted at all). When qpdf writes a decrypted copy
 * that MuPDF opens, the tool gets that; otherwise the input passes as it is and meets openPdf's
 * PDF_ENCRYPTED. qpdf never guesses a password: only the empty one is tried.
 */
export async function decryptOpenableInputs(
  inputs: readonly EngineInput[],
  passwords: readonly (string | undefined)[],
): Promise<EngineInput[]> {
  return Promise.all(
    inputs.map(async (input, index) => {
      if (input.kind !== "pdf" || passwords[index] !== undefined || !isLocked(input.bytes)) return input;
      const decrypted = await qpdfDecrypt(input.bytes);
      return decrypted !== undefined && !isLocked(decrypted) ? { ...input, bytes: decrypted } : input;
    }),
  );
}

/** Whether MuPDF opens the bytes as a PDF that still needs a password (after the empty one). */
function isLocked(bytes: Uint8Array): boolean {
  let pdf: ReturnType<typeof openPdfDocument>;
  try {
    pdf = openPdfDocument(bytes, 0);
  } catch {
    return false;
  }
  try {
    return pdf.needsPassword();
  } finally {
    pdf.destroy();
  }
}

/** qpdf's decrypted copy of the bytes with the empty password, or undefined when it has none. */
async function qpdfDecrypt(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const dir = await mkdtemp(join(tmpdir(), "qpdf-"));
  try {
    const input = join(dir, "in.pdf");
    const output = join(dir, "out.pdf");
    await writeFile(input, bytes, { mode: 0o600 });
    const code = await new Promise<number>((done) => {
      // No output is read from qpdf: its messages may quote the document.
      execFile("qpdf", ["--decrypt", "--password=", input, output], { timeout: QPDF_TIMEOUT_MS }, (error) =>
        done(error ? (typeof error.code === "number" ? error.code : -1) : 0),
      );
    });
    if (!QPDF_WROTE.has(code)) return undefined;
    return new Uint8Array(await readFile(output));
  } catch {
    return undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
