import { deflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { filterRows } from "../image/png-encode.ts";

/**
 * Images of more bytes of samples are left as they are: the samples and their filtered copy are
 * both held in memory (80 MB each at most, as an 80-megapixel grey image is decoded elsewhere).
 */
const MAX_BYTES = 80_000_000;
/** A re-coded stream must save at least this share of the old one to replace it. */
const MIN_SAVING = 0.1;
/** Filters that store samples exactly: an image coded only with these can be re-coded without loss. */
const LOSSLESS_FILTERS = new Set([
  "FlateDecode",
  "LZWDecode",
  "RunLengthDecode",
  "ASCII85Decode",
  "ASCIIHexDecode",
]);

/** Samples of an image, row after row, as PDF lays them out (rows padded to whole bytes). */
export interface Samples {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly colors: number;
  readonly bitsPerComponent: number;
}

/** A Flate stream and the /DecodeParms that undo its PNG predictor. */
export interface PredictedStream {
  readonly stream: Uint8Array;
  readonly parms: { Predictor: 15; Colors: number; BitsPerComponent: number; Columns: number };
}

/**
 * Deflates image samples after a PNG predictor chosen row by row (PDF's /Predictor 15): each row
 * is stored as the difference from its left, upper or both neighbours, whichever leaves the
 * smallest sum of absolute differences (libpng's heuristic). Smooth images, gradients and drawings
 * with long runs of one colour turn into long runs of zeros, which Flate codes in a few bytes:
 * a 256×256 gradient of 128 KB deflated to 88 KB without a predictor and to 1 KB with one.
 */
export function deflateWithPredictor(samples: Samples): PredictedStream {
  const { data, width, height, colors, bitsPerComponent } = samples;
  const rowBytes = Math.ceil((width * colors * bitsPerComponent) / 8);
  // Bytes between a sample and its left neighbour (at least one byte when samples are bits).
  const step = Math.max(1, Math.ceil((colors * bitsPerComponent) / 8));
  return {
    stream: deflateSync(filterRows(data, height, rowBytes, step), { level: 9, memLevel: 9 }),
    parms: { Predictor: 15, Colors: colors, BitsPerComponent: bitsPerComponent, Columns: width },
  };
}

/**
 * The samples of an image stored losslessly (Flate, LZW, run-length or uncompressed) re-coded as
 * Flate with a PNG predictor, in its own colour space and bit depth: every sample stays exactly as
 * it was, so Indexed, spot-colour (Separation, DeviceN), CMYK and 1-bit images, stencil masks and
 * soft masks qualify alike. Null when the image is coded otherwise or its samples are cut short.
 * `colors` is the number of components of its colour space (ignored for a stencil mask).
 */
export function predictedImage(image: mupdf.PDFObject, colors: number): PredictedStream | null {
  const filters = filterList(image);
  if (filters === null || filters.some((name) => !LOSSLESS_FILTERS.has(name))) return null;
  const width = image.get("Width").asNumber();
  const height = image.get("Height").asNumber();
  const stencil = image.get("ImageMask").isBoolean() && image.get("ImageMask").asBoolean();
  const bitsPerComponent = stencil ? 1 : image.get("BitsPerComponent").asNumber();
  const components = stencil ? 1 : colors;
  if (![1, 2, 4, 8, 16].includes(bitsPerComponent) || !(width > 0 && height > 0)) return null;
  const rowBytes = Math.ceil((width * components * bitsPerComponent) / 8);
  if (rowBytes * height > MAX_BYTES) return null;
  const data = image.readStream().asUint8Array();
  // A short stream (damaged, or cut by its producer) keeps the padding a reader gives it.
  if (data.length < rowBytes * height) return null;
  return deflateWithPredictor({ data, width, height, colors: components, bitsPerComponent });
}

/** Writes `predicted` as the image's stream; its samples, colour space and size stay. */
export function writePredicted(
  pdf: mupdf.PDFDocument,
  image: mupdf.PDFObject,
  predicted: PredictedStream,
): void {
  image.writeRawStream(predicted.stream);
  image.put("Filter", pdf.newName("FlateDecode"));
  const parms = pdf.newDictionary();
  for (const [key, value] of Object.entries(predicted.parms)) parms.put(key, value);
  image.put("DecodeParms", parms);
}

/**
 * Re-codes a losslessly stored image with a predictor (see predictedImage) when that makes its
 * stream clearly smaller. Returns the bytes saved.
 */
export function repredictImage(pdf: mupdf.PDFDocument, image: mupdf.PDFObject, colors: number): number {
  const before = image.readRawStream().getLength();
  const predicted = predictedImage(image, colors);
  if (predicted === null || predicted.stream.length > before * (1 - MIN_SAVING)) return 0;
  writePredicted(pdf, image, predicted);
  return before - predicted.stream.length;
}

/** The stream's filter names in order ([] when it has none), or null when the entry is malformed. */
export function filterList(stream: mupdf.PDFObject): string[] | null {
  const filter = stream.get("Filter");
  if (filter.isNull()) return [];
  if (filter.isName()) return [filter.asName()];
  if (!filter.isArray()) return null;
  const names: string[] = [];
  for (let i = 0; i < filter.length; i++) {
    const name = filter.get(i);
    if (!name.isName()) return null;
    names.push(name.asName());
  }
  return names;
}
