import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as mupdf from "mupdf";
import type { EngineInput } from "../types.ts";
import { isNamed } from "./object-kinds.ts";
import { openPdfDocument } from "./open-pdf.ts";
import { paddedRc4Key } from "./padded-rc4-key.ts";
import { savePdf } from "./write-pdf.ts";

/** qpdf exits 0 when clean and 3 with warnings only; either way the output is written. */
const QPDF_WROTE = new Set([0, 3]);
const QPDF_TIMEOUT_MS = 60_000;

/**
 * Input PDFs that MuPDF finds locked although no password was given, yet are meant to open without
 * one, are opened here; the others pass as they are and meet openPdf's PDF_ENCRYPTED:
 * - encryption of the attachments alone (strings and streams `/Identity`, the attachments under
 *   their own crypt filter, `/EFF`, often with `/AuthEvent /EFOpen`): the document is written
 *   without encryption and without the attachments, which only their password opens;
 * - otherwise qpdf, with the empty password: an AES-256 file whose empty password is the owner's
 *   (as Bluebeam writes), a broken encryption dictionary on a file a repair finds.
 * No password is ever guessed: only the empty one is tried. A PDF in which MuPDF's repair finds no
 * pages is rewritten by qpdf, whose reconstruction sometimes finds them.
 */
export async function decryptOpenableInputs(
  inputs: readonly EngineInput[],
  passwords: readonly (string | undefined)[],
): Promise<EngineInput[]> {
  return Promise.all(
    inputs.map(async (input, index) => {
      if (input.kind !== "pdf") return input;
      if (!readsNoPages(input.bytes)) {
        if (passwords[index] !== undefined || !isLocked(input.bytes)) return input;
        const decrypted = withoutEncryptedAttachments(input.bytes) ?? (await qpdf(input.bytes, DECRYPT));
        return decrypted !== undefined && !isLocked(decrypted) ? { ...input, bytes: decrypted } : input;
      }
      // MuPDF finds no pages: an Acrobat RC4 file whose object keys come from the padded key
      // (engines/pdf/padded-rc4-key.ts) is decrypted by qpdf with that key; otherwise qpdf's
      // reconstruction sometimes finds them (fuzzed files whose cross-reference and page tree
      // MuPDF gives up on; pdfinfo reads them too).
      const key = askMuPdf(input.bytes, paddedRc4Key, undefined);
      const decrypted = key === undefined ? undefined : await qpdf(input.bytes, hexKeyDecrypt(key));
      if (decrypted !== undefined && !readsNoPages(decrypted)) return { ...input, bytes: decrypted };
      const rewritten = await qpdf(input.bytes, []);
      return rewritten !== undefined && !readsNoPages(rewritten) ? { ...input, bytes: rewritten } : input;
    }),
  );
}

/** Whether MuPDF opens the bytes as an unlocked PDF in which it finds no pages. */
function readsNoPages(bytes: Uint8Array): boolean {
  return askMuPdf(bytes, (pdf) => !pdf.needsPassword() && pdf.countPages() === 0, false);
}

/** Whether MuPDF opens the bytes as a PDF that still needs a password (after the empty one). */
function isLocked(bytes: Uint8Array): boolean {
  return askMuPdf(bytes, (pdf) => pdf.needsPassword(), false);
}

/** `question` of the document MuPDF opens from the bytes; `otherwise` when it cannot open or answer. */
function askMuPdf<T>(bytes: Uint8Array, question: (pdf: mupdf.PDFDocument) => T, otherwise: T): T {
  let pdf: mupdf.PDFDocument;
  try {
    pdf = openPdfDocument(bytes, 0);
  } catch {
    return otherwise;
  }
  try {
    return question(pdf);
  } catch {
    return otherwise;
  } finally {
    pdf.destroy();
  }
}

/**
 * The document without its encryption when only its attachments are encrypted (strings and streams
 * `/Identity`), the attachments removed; undefined for any other encryption.
 */
function withoutEncryptedAttachments(bytes: Uint8Array): Uint8Array | undefined {
  const pdf = openPdfDocument(bytes, 0);
  try {
    const trailer = pdf.getTrailer();
    const encrypt = trailer.get("Encrypt");
    const identity = (key: string) => isNamed(encrypt.get(key), "Identity");
    if (!identity("StmF") || !identity("StrF")) return undefined;
    trailer.delete("Encrypt");
    const names = trailer.get("Root", "Names");
    if (names.isDictionary()) names.delete("EmbeddedFiles");
    return savePdf(pdf, "garbage=compact");
  } catch {
    return undefined;
  } finally {
    pdf.destroy();
  }
}

/** qpdf's arguments for a decrypted copy with the empty password. */
const DECRYPT = ["--decrypt", "--password="];
/** qpdf's arguments for a decrypted copy with the file key given (hexadecimal), no password. */
const hexKeyDecrypt = (key: string) => ["--decrypt", "--password-is-hex-key", `--password=${key}`];

/** qpdf's copy of the bytes written with `args`, or undefined when it writes none. */
export async function qpdf(bytes: Uint8Array, args: readonly string[]): Promise<Uint8Array | undefined> {
  const dir = await mkdtemp(join(tmpdir(), "qpdf-"));
  try {
    const input = join(dir, "in.pdf");
    const output = join(dir, "out.pdf");
    await writeFile(input, bytes, { mode: 0o600 });
    const code = await new Promise<number>((done) => {
      // No output is read from qpdf: its messages may quote the document.
      execFile("qpdf", [...args, input, output], { timeout: QPDF_TIMEOUT_MS }, (error) =>
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
