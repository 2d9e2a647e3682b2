import type * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import type { EngineInput } from "../types.ts";
import { everyObject } from "./every-object.ts";
import { isNamed } from "./object-kinds.ts";
import { openPdfDocument } from "./open-pdf.ts";

/**
 * The largest JBIG2 page a job decodes: 256 million pixels, 32 MiB as the decoder's 1-bit bitmap
 * but 256 MiB as the 8-bit grey image rendering and resampling make of it, a quarter of a job's
 * memory. A 600 ppi A1 scan (14,043 × 19,866, 279 M) is over it; an A2 (9,933 × 14,043) is not.
 */
export const MAX_JBIG2_PIXELS = 256_000_000;
/** JBIG2 segment type of the page information segment (ITU T.88, 7.4.8). */
const PAGE_INFORMATION = 48;
/** Segments read before giving up on finding the page information (it comes first in practice). */
const MAX_SEGMENTS = 16;

/**
 * Refuses, from the headers alone, a PDF whose JBIG2 streams declare a page too large to decode: a
 * few kilobytes of JBIG2 can declare 100,000 × 100,000 pixels (1.16 GB decoded), which ran a job out
 * of memory when compression read the stream. Every stream filtered with JBIG2Decode (an image or,
 * as in such bombs, a content stream) has its page information segment read from the raw bytes,
 * before any decoder runs: IMAGE_TOO_LARGE names the file and the declared size.
 */
export function refuseDecodeBombs(inputs: readonly EngineInput[]): void {
  for (const [index, input] of inputs.entries()) {
    if (input.kind !== "pdf") continue;
    let pdf: mupdf.PDFDocument;
    try {
      pdf = openPdfDocument(input.bytes, index);
    } catch {
      continue; // openPdf names the damage when the tool opens it.
    }
    try {
      if (pdf.needsPassword()) continue;
      for (const { object } of everyObject(pdf)) {
        const size = jbig2Size(object);
        if (size !== undefined && size.width * size.height > MAX_JBIG2_PIXELS) {
          throw new AppError("IMAGE_TOO_LARGE", "An image in the PDF has too many pixels to decode.", {
            file_index: index,
            width: size.width,
            height: size.height,
            max_pixels: MAX_JBIG2_PIXELS,
          });
        }
      }
    } finally {
      pdf.destroy();
    }
  }
}

/** The page size a JBIG2-filtered stream declares, or undefined (not JBIG2, no readable header). */
function jbig2Size(object: mupdf.PDFObject): { width: number; height: number } | undefined {
  try {
    if (!object.isStream() || !filteredWithJbig2(object.get("Filter"))) return undefined;
    return jbig2PageSize(object.readRawStream().asUint8Array());
  } catch {
    return undefined;
  }
}

function filteredWithJbig2(filter: mupdf.PDFObject): boolean {
  if (filter.isName()) return filter.asName() === "JBIG2Decode";
  if (!filter.isArray()) return false;
  for (let i = 0; i < filter.length; i++) {
    if (isNamed(filter.get(i), "JBIG2Decode")) return true;
  }
  return false;
}

/**
 * Width and height from the page information segment of JBIG2 data in the embedded organisation
 * (segment headers without a file header, as PDF holds them; T.88 7.2): segment number, flags,
 * referred-to segments, page association, data length, then the segment's data.
 */
export function jbig2PageSize(data: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let at = 0;
  for (let segment = 0; segment < MAX_SEGMENTS && at + 6 <= data.length; segment++) {
    const number = view.getUint32(at);
    const flags = view.getUint8(at + 4);
    const type = flags & 0x3f;
    const longPageAssociation = (flags & 0x40) !== 0;
    at += 5;
    let referred = view.getUint8(at) >> 5;
    if (referred === 7) {
      if (at + 4 > data.length) return undefined;
      referred = view.getUint32(at) & 0x1fffffff;
      at += 4 + Math.ceil((referred + 1) / 8);
    } else at += 1;
    const referenceSize = number <= 256 ? 1 : number <= 65_536 ? 2 : 4;
    at += referred * referenceSize + (longPageAssociation ? 4 : 1);
    if (at + 4 > data.length) return undefined;
    const length = view.getUint32(at);
    at += 4;
    if (type === PAGE_INFORMATION) {
      if (at + 8 > data.length) return undefined;
      const width = view.getUint32(at);
      const height = view.getUint32(at + 4);
      // 0xffffffff: a striped page whose height comes with its end; the width alone is not a size.
      return height === 0xffffffff ? undefined : { width, height };
    }
    if (length === 0xffffffff) return undefined;
    at += length;
  }
  return undefined;
}
