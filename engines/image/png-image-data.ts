/**
 * Checks a PNG's image data without decoding it: images-to-pdf places PNG image data in the PDF as
 * it is (engines/pdf/images-to-pdf-image.ts), so it must know that every row is there with a valid
 * filter type. Inflating the IDAT stream here (natively, streaming, nothing kept) proves it.
 */
import { Unzlib } from "fflate";
import { AppError } from "../../contract/index.ts";
import { inflate } from "./inflate.ts";
import { PNG_CHANNELS, type PngHeader, type PngLayout, readPngLayout } from "./png-chunks.ts";

/** Adam7 passes: first column, first row, column step, row step (PNG spec §8.2). */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Highest filter type (Paeth). */
const MAX_FILTER_TYPE = 4;

/**
 * Inflated bytes tolerated past the declared rows: libpng and browsers ignore a little data after
 * the last row, which costs nothing; more is a file lying about its size and is refused.
 */
const EXCESS_TOLERANCE = 64 * 1024;

interface RowRun {
  /** Bytes per row including the leading filter-type byte. */
  readonly rowLength: number;
  readonly rows: number;
}

/** The rows of the filtered image data, in stream order (one run, or one per Adam7 pass). */
export function pngRowRuns(header: PngHeader): RowRun[] {
  const bitsPerPixel = PNG_CHANNELS[header.colorType] * header.bitDepth;
  const run = (width: number, rows: number): RowRun => ({
    rowLength: 1 + Math.ceil((width * bitsPerPixel) / 8),
    rows,
  });
  if (!header.interlaced) return [run(header.width, header.height)];
  const runs: RowRun[] = [];
  for (const [x0, y0, dx, dy] of ADAM7) {
    const width = Math.ceil(Math.max(0, header.width - x0) / dx);
    const rows = Math.ceil(Math.max(0, header.height - y0) / dy);
    // Passes with no pixels have no rows at all, not even filter bytes.
    if (width > 0 && rows > 0) runs.push(run(width, rows));
  }
  return runs;
}

/**
 * The raw deflate data of a zlib stream split over `parts`: after the 2-byte zlib header and
 * without the last 4 bytes, where the Adler-32 checksum belongs. Throws IMAGE_DAMAGED when the
 * header is not a zlib header for deflate without a preset dictionary.
 */
function deflateData(parts: readonly Uint8Array[]): Uint8Array[] {
  const first = parts[0];
  const [cmf, flg] = [first?.[0] ?? 0, first?.[1] ?? parts[1]?.[0] ?? 0];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || (cmf * 256 + flg) % 31 !== 0 || flg & 0x20) {
    throw new AppError("IMAGE_DAMAGED", "PNG image data does not start with a zlib header");
  }
  let skip = 2;
  let keep = parts.reduce((sum, part) => sum + part.length, 0) - 2 - 4;
  const out: Uint8Array[] = [];
  for (const part of parts) {
    const from = Math.min(skip, part.length);
    skip -= from;
    const piece = part.subarray(from, from + Math.max(0, keep));
    keep -= piece.length;
    if (piece.length > 0) out.push(piece);
  }
  return out;
}

/**
 * Inflates the IDAT stream and checks that it holds every row, each starting with a known filter
 * type, and no more than a little (a PDF viewer would inflate whatever follows). Throws IMAGE_DAMAGED.
 *
 * The checksum is left out of the inflater's input, because DecompressionStream drops the output
 * of the call that finds it wrong, while the decoder ignores it. A stream lacking its checksum so
 * loses 4 bytes of deflate data here and is refused, as the decoder refuses it. Bytes after the
 * zlib stream (which the decoder ignores) make workerd's inflater fail before it hands out the last
 * rows, so such rare files are refused at the edge.
 */
export async function checkPngImageData(layout: PngLayout): Promise<void> {
  const data = deflateData(layout.imageData);
  const runs = pngRowRuns(layout.header);
  let run = 0;
  let rowsLeft = runs[0]?.rows ?? 0;
  let inRow = 0;
  let badFilter = -1;
  let rowsSeen = 0;
  let excess = 0;
  const consume = (chunk: Uint8Array): boolean => {
    let at = 0;
    while (at < chunk.length) {
      const current = runs[run];
      if (!current) {
        excess += chunk.length - at;
        return excess <= EXCESS_TOLERANCE;
      }
      if (inRow === 0 && (chunk[at] ?? 0) > MAX_FILTER_TYPE) {
        badFilter = chunk[at] ?? 0;
        return false;
      }
      const take = Math.min(current.rowLength - inRow, chunk.length - at);
      at += take;
      inRow += take;
      if (inRow === current.rowLength) {
        inRow = 0;
        rowsSeen++;
        if (--rowsLeft === 0) rowsLeft = runs[++run]?.rows ?? 0;
      }
    }
    return true;
  };
  const totalRows = runs.reduce((sum, r) => sum + r.rows, 0);
  try {
    await inflate(data, consume, "deflate-raw");
  } catch (error) {
    if (run < runs.length && badFilter < 0) {
      const reason = error instanceof Error && error.message ? `: ${error.message}` : "";
      throw new AppError(
        "IMAGE_DAMAGED",
        `PNG image data is corrupt after ${rowsSeen} of ${totalRows} rows${reason}`,
      );
    }
  }
  if (badFilter >= 0) {
    throw new AppError("IMAGE_DAMAGED", `PNG row ${rowsSeen + 1} has unknown filter type ${badFilter}`);
  }
  if (run < runs.length) {
    throw new AppError("IMAGE_DAMAGED", `PNG image data ends after ${rowsSeen} of ${totalRows} rows`);
  }
  if (excess > EXCESS_TOLERANCE) {
    throw new AppError("IMAGE_DAMAGED", `PNG image data holds far more than its ${totalRows} rows`);
  }
}

/** Bytes of filtered image data the header declares: every row of every pass with its filter byte. */
export function pngImageDataSize(header: PngHeader): number {
  return pngRowRuns(header).reduce((sum, run) => sum + run.rowLength * run.rows, 0);
}

/** Compressed bytes fed to the inflater at a time: deflate expands at most ~1032×, so ≤ 8.3 MB out per step. */
const INFLATE_STEP = 8 * 1024;

/** Thrown by the counting consumer to stop the inflater. */
class Overflow extends Error {}

/**
 * Refuses a PNG whose image data inflates to more than its header declares (a few hundred KB can
 * hold hundreds of MB of zeros for a 100×100 image): the stream is inflated in small steps, counted
 * and discarded, and stopped once past the declared size (and the tolerance), so it never holds
 * more than one step's output. A stream cut short or corrupt is left to the decoder, which gives its verdict.
 * Throws IMAGE_DAMAGED.
 */
export function checkPngDataSize(layout: PngLayout): void {
  const declared = pngImageDataSize(layout.header);
  let inflated = 0;
  const inflater = new Unzlib((chunk) => {
    inflated += chunk.length;
    if (inflated > declared + EXCESS_TOLERANCE) throw new Overflow();
  });
  try {
    for (const part of layout.imageData) {
      for (let at = 0; at < part.length; at += INFLATE_STEP) {
        inflater.push(part.subarray(at, at + INFLATE_STEP));
      }
    }
  } catch (error) {
    if (!(error instanceof Overflow)) return;
    const { width, height } = layout.header;
    throw new AppError(
      "IMAGE_DAMAGED",
      `PNG image data inflates beyond the ${declared} bytes its ${width}×${height} header declares`,
    );
  }
}

/**
 * The same check on a file's bytes, before a decoder (fast-png at the edge, libvips in the
 * container) sees them. A PNG whose structure cannot be read is left to the decoder.
 */
export function checkPngBytesDataSize(bytes: Uint8Array): void {
  let layout: PngLayout;
  try {
    layout = readPngLayout(bytes);
  } catch {
    return;
  }
  checkPngDataSize(layout);
}
