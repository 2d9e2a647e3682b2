/**
 * File kinds recognised by content (magic bytes), never by the name or MIME type a browser reports.
 * Markdown has no signature: it is accepted as UTF-8 text without NUL bytes, or UTF-16 text that a
 * byte order mark announces (what Windows Notepad's "Unicode" and PowerShell's `>` write), with a
 * Markdown extension.
 */
export const FILE_KINDS = {
  pdf: { mime: "application/pdf", extensions: ["pdf"] },
  png: { mime: "image/png", extensions: ["png"] },
  jpeg: { mime: "image/jpeg", extensions: ["jpg", "jpeg"] },
  webp: { mime: "image/webp", extensions: ["webp"] },
  gif: { mime: "image/gif", extensions: ["gif"] },
  /** HEIF with HEVC pictures (iPhone photos); HEIF files of other codecs sniff as this too. */
  heic: { mime: "image/heic", extensions: ["heic", "heif", "hif"] },
  avif: { mime: "image/avif", extensions: ["avif"] },
  tiff: { mime: "image/tiff", extensions: ["tiff", "tif"] },
  bmp: { mime: "image/bmp", extensions: ["bmp", "dib"] },
  markdown: { mime: "text/markdown", extensions: ["md", "markdown", "mdown", "mkdn", "mkd"] },
  zip: { mime: "application/zip", extensions: ["zip"] },
  docx: {
    mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    extensions: ["docx"],
  },
  xlsx: {
    mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    extensions: ["xlsx"],
  },
} as const;

export type FileKind = keyof typeof FILE_KINDS;

/** How many leading bytes `sniffFileKind` needs to decide. */
export const SNIFF_BYTES = 4096;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

function indexOfSequence(bytes: Uint8Array, sequence: readonly number[], limit: number): number {
  const end = Math.min(bytes.length, limit) - sequence.length;
  for (let i = 0; i <= end; i++) {
    if (startsWith(bytes, sequence, i)) return i;
  }
  return -1;
}

function isUtf8TextWithoutNul(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // Streaming: a character cut at the sniff boundary (the 1–3 bytes of an incomplete sequence at
    // the end) waits for the next chunk instead of failing; every other invalid byte throws.
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The UTF-16 byte order a byte order mark at the start names, or null when there is none. */
export function utf16ByteOrder(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * UTF-16 after its byte order mark: no NUL character and every surrogate paired, except a
 * character cut at the end of the sniffed bytes (a lone high surrogate, or a last odd byte).
 */
function isUtf16TextWithoutNul(bytes: Uint8Array, order: "utf-16le" | "utf-16be"): boolean {
  const end = bytes.length - (bytes.length % 2);
  const unitAt = (at: number) =>
    order === "utf-16le"
      ? (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8)
      : ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
  for (let at = 2; at < end; at += 2) {
    const unit = unitAt(at);
    if (unit === 0 || (unit >= 0xdc00 && unit <= 0xdfff)) return false;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      if (at + 2 >= end) return true;
      const low = unitAt(at + 2);
      if (low < 0xdc00 || low > 0xdfff) return false;
      at += 2;
    }
  }
  return true;
}

/** A Markdown file's text: UTF-16 when its byte order mark says so, else UTF-8; the mark dropped. */
export function markdownText(bytes: Uint8Array): string {
  return new TextDecoder(utf16ByteOrder(bytes) ?? "utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

/** The brands of an ISO base media file (major, then compatible) when it starts with an `ftyp` box. */
export function isoBrands(head: Uint8Array): string[] {
  if (head.length < 16 || !startsWith(head, ascii("ftyp"), 4)) return [];
  const size = ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0);
  const end = Math.min(head.length, size >>> 0);
  const brands: string[] = [];
  for (let at = 8; at + 4 <= end; at += 4) {
    // Bytes 12–15 are the minor version, not a brand.
    if (at !== 12) brands.push(String.fromCharCode(...head.subarray(at, at + 4)));
  }
  return brands;
}

/** AV1 image brands; HEIF brands (HEVC images and sequences, and the generic image/sequence brands). */
const AVIF_BRANDS = ["avif", "avis"];
const HEIF_BRANDS = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"];

function heifKind(head: Uint8Array): "heic" | "avif" | null {
  const brands = isoBrands(head);
  if (brands.some((brand) => AVIF_BRANDS.includes(brand))) return "avif";
  if (brands.some((brand) => HEIF_BRANDS.includes(brand))) return "heic";
  return null;
}

/** BMP: "BM", then a DIB header whose size names one of the known versions (core, V1–V5, OS/2 2). */
const BMP_HEADER_SIZES = [12, 16, 40, 52, 56, 64, 108, 124];

function isBmp(head: Uint8Array): boolean {
  if (head.length < 18 || !startsWith(head, ascii("BM"))) return false;
  const dibSize =
    (head[14] ?? 0) | ((head[15] ?? 0) << 8) | ((head[16] ?? 0) << 16) | ((head[17] ?? 0) << 24);
  return BMP_HEADER_SIZES.includes(dibSize);
}

/** PDF white space (ISO 32000-2, 7.2.3). */
const PDF_WHITE_SPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);

/**
 * A PDF without its `%PDF-` header (cut off, or never written), as poppler, qpdf and MuPDF still
 * read: after white space and `%` comment lines, within the first 1024 bytes, the file starts with
 * an indirect object (`1 0 obj`).
 */
function startsWithPdfObject(head: Uint8Array): boolean {
  const end = Math.min(head.length, 1024);
  let at = 0;
  while (at < end) {
    const byte = head[at] ?? 0;
    if (PDF_WHITE_SPACE.has(byte)) at++;
    else if (byte === 0x25) {
      while (at < end && head[at] !== 0x0a && head[at] !== 0x0d) at++;
    } else break;
  }
  const text = String.fromCharCode(...head.subarray(at, Math.min(end, at + 32)));
  return /^\d{1,10}[\0\t\n\f\r ]+\d{1,5}[\0\t\n\f\r ]+obj[\0\t\n\f\r <[/(]/.test(text);
}

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

/**
 * Identifies a file from its first bytes (at least `SNIFF_BYTES` when the file is that long).
 * The file name is consulted only for Markdown, which has no signature.
 */
export function sniffFileKind(head: Uint8Array, filename = ""): FileKind | null {
  // PDF readers accept the header anywhere in the first 1024 bytes, and a file without one that
  // starts with an object.
  if (indexOfSequence(head, ascii("%PDF-"), 1024) >= 0 || startsWithPdfObject(head)) return "pdf";
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8)) return "webp";
  if (startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"))) return "gif";
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return "zip";
  const heif = heifKind(head);
  if (heif) return heif;
  // Classic TIFF (42) and BigTIFF (43), little- or big-endian.
  if (startsWith(head, ascii("II")) && (head[2] === 42 || head[2] === 43) && head[3] === 0) return "tiff";
  if (startsWith(head, ascii("MM")) && head[2] === 0 && (head[3] === 42 || head[3] === 43)) return "tiff";
  if (isBmp(head)) return "bmp";
  const markdownExtensions: readonly string[] = FILE_KINDS.markdown.extensions;
  if (markdownExtensions.includes(extensionOf(filename))) {
    const order = utf16ByteOrder(head);
    if (order === null ? isUtf8TextWithoutNul(head) : isUtf16TextWithoutNul(head, order)) return "markdown";
  }
  return null;
}
