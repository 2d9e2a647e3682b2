import { randomBytes } from "node:crypto";
import type * as mupdf from "mupdf";
import { openPdf } from "../../engines/pdf/open-pdf.ts";
import { isEncrypted, pdfPassword } from "../../engines/pdf/pdf-password.ts";
import { asPdfJobError, fillEmptyStreams, savePdf } from "../../engines/pdf/write-pdf.ts";
import type { EngineHandler } from "../../engines/types.ts";

export interface ProtectOptions {
  readonly password: string;
  readonly owner_password?: string | undefined;
  readonly allow_printing: boolean;
  readonly allow_copying: boolean;
  readonly allow_editing: boolean;
  readonly allow_forms: boolean;
  readonly allow_annotations: boolean;
}

/**
 * The permission bits (PDF 2.0 table 22, bit n = 1 << (n - 1)) of each choice. Bits 7–8 and 13–32
 * are always set, and so is bit 10 (text for accessibility tools), which no choice takes away.
 */
const ALWAYS = 0xfffff0c0 | (1 << 9);
const PERMISSION_BITS = {
  allow_printing: (1 << 2) | (1 << 11),
  allow_editing: (1 << 3) | (1 << 10),
  allow_copying: 1 << 4,
  allow_annotations: 1 << 5,
  allow_forms: 1 << 8,
} as const;

/** The `P` value of the encryption dictionary (a signed 32-bit integer) for the chosen permissions. */
export function permissionValue(options: ProtectOptions): number {
  let value = ALWAYS;
  for (const [name, bits] of Object.entries(PERMISSION_BITS)) {
    if (options[name as keyof typeof PERMISSION_BITS]) value |= bits;
  }
  return value | 0;
}

/** Signature fields of the document: encrypting a signed PDF invalidates its signatures. */
function signatureCount(pdf: mupdf.PDFDocument): number {
  let count = 0;
  for (let index = 0; index < pdf.countPages(); index++) {
    const page = pdf.loadPage(index);
    try {
      count += page.getWidgets().filter((widget) => widget.getFieldType() === "signature").length;
    } finally {
      page.destroy();
    }
  }
  return count;
}

/**
 * Encrypts one PDF with AES-256 (revision 6) under the SASLprep'd passwords. Without an owner
 * password, a random one (256 bits, never shown or kept) is set: an empty owner password would
 * let anyone lift the permissions. A PDF that needs a password to open is PDF_ENCRYPTED (the
 * shared input-password option opens it first).
 */
export const protectPdf: EngineHandler<ProtectOptions> = async (inputs, options, progress) => {
  const [input] = inputs;
  if (input === undefined) throw new Error("protect needs one PDF");
  const pdf = openPdf(input.bytes, 0);
  try {
    const user = pdfPassword(options.password, "password");
    const owner =
      options.owner_password === undefined
        ? randomBytes(32).toString("base64url")
        : pdfPassword(options.owner_password, "owner_password");
    const signatures = signatureCount(pdf);
    const replaced = isEncrypted(pdf);
    progress(30);
    fillEmptyStreams(pdf);
    // Options as an object: MuPDF takes them as JSON, so a comma or "=" in a password stays in it.
    // Objects no page or catalog entry reaches are dropped (garbage), as every PDF tool saves: a
    // damaged one among them (repaired files keep such leftovers) cannot be written.
    const bytes = savePdfWith(pdf, {
      garbage: "yes",
      encrypt: "aes-256",
      "user-password": user,
      "owner-password": owner,
      permissions: String(permissionValue(options)),
    });
    progress(100);
    return {
      bytes,
      facts: {
        pages: pdf.countPages(),
        encryption: "AES-256",
        owner_password: options.owner_password !== undefined,
        signatures_invalidated: signatures,
        encryption_replaced: replaced,
      },
    };
  } catch (error) {
    throw asPdfJobError(error, "protection", { file_index: 0 });
  } finally {
    pdf.destroy();
  }
};

function savePdfWith(pdf: mupdf.PDFDocument, options: Record<string, string>): Uint8Array {
  return savePdf(pdf, JSON.stringify(options));
}
