/**
 * PNG structure without decoding pixels: the chunk walk, the validated IHDR and the chunks the image
 * engines need (PLTE, tRNS, iCCP, eXIf, the IDAT stream). CRCs are not checked, as browsers and the
 * decoders we use do not reject files for them.
 */
import { AppError } from "../../contract/index.ts";

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
/** Chunk lengths are 31-bit (PNG spec §5.3). */
const MAX_CHUNK_LENGTH = 0x7fffffff;

export type PngColorType = 0 | 2 | 3 | 4 | 6;

export interface PngHeader {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  readonly colorType: PngColorType;
  readonly interlaced: boolean;
}

export interface PngLayout {
  readonly header: PngHeader;
  readonly palette: Uint8Array | undefined;
  readonly transparency: Uint8Array | undefined;
  /** iCCP payload (profile name, method, zlib data), when present before IDAT. */
  readonly iccp: Uint8Array | undefined;
  /** eXIf payload, when present before IDAT (its place in the PNG spec). */
  readonly exif: Uint8Array | undefined;
  /** Text chunks (tEXt, zTXt, iTXt: comments, XMP, camera data) anywhere in the file. */
  readonly text: boolean;
  /** An acTL chunk: an animated PNG, whose default image is its first frame. */
  readonly animated: boolean;
  /** IDAT payloads in order (views into the input); the last one may be cut short. */
  readonly imageData: readonly Uint8Array[];
  /** An IEND chunk follows the image data: nothing was cut off. */
  readonly complete: boolean;
}

interface RawChunk {
  readonly type: string;
  readonly data: Uint8Array;
  /** False when the file ends inside this chunk (data and CRC cut short). */
  readonly whole: boolean;
}

/** Bit depths allowed for each colour type (PNG spec table 11.1). */
const BIT_DEPTHS: Readonly<Record<PngColorType, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/** Samples per pixel for each colour type. */
export const PNG_CHANNELS: Readonly<Record<PngColorType, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function damaged(message: string): AppError {
  return new AppError("IMAGE_DAMAGED", message);
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
}

/** Chunks after the signature, in file order, up to IEND or the end of the bytes. */
function* walkChunks(bytes: Uint8Array): Generator<RawChunk> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = PNG_SIGNATURE.length;
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at);
    if (length > MAX_CHUNK_LENGTH) throw damaged(`PNG chunk length ${length} out of range`);
    const type = chunkType(bytes, at + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) throw damaged("PNG chunk type is not four letters");
    const start = at + 8;
    const end = start + length;
    yield { type, data: bytes.subarray(start, Math.min(end, bytes.length)), whole: end + 4 <= bytes.length };
    if (type === "IEND") return;
    at = end + 4;
  }
}

function parseHeader(chunk: RawChunk | undefined): PngHeader {
  if (chunk?.type !== "IHDR") throw damaged("PNG does not start with an IHDR chunk");
  if (chunk.data.length !== 13 || !chunk.whole) throw damaged("PNG IHDR chunk is cut short or malformed");
  const view = new DataView(chunk.data.buffer, chunk.data.byteOffset, 13);
  const width = view.getUint32(0);
  const height = view.getUint32(4);
  const bitDepth = view.getUint8(8);
  const colorType = view.getUint8(9);
  if (width === 0 || height === 0 || width > MAX_CHUNK_LENGTH || height > MAX_CHUNK_LENGTH) {
    throw damaged(`PNG size ${width}×${height} is invalid`);
  }
  if (!(colorType in BIT_DEPTHS) || !BIT_DEPTHS[colorType as PngColorType].includes(bitDepth)) {
    throw damaged(`PNG colour type ${colorType} with bit depth ${bitDepth} is invalid`);
  }
  const interlace = view.getUint8(12);
  if (view.getUint8(10) !== 0 || view.getUint8(11) !== 0 || interlace > 1) {
    throw damaged("PNG compression, filter or interlace method is unknown");
  }
  return { width, height, bitDepth, colorType: colorType as PngColorType, interlaced: interlace === 1 };
}

/** tRNS as the spec allows it: 2 bytes for grey, 6 for RGB, up to one per palette entry. */
function validTransparency(header: PngHeader, data: Uint8Array, palette: Uint8Array | undefined) {
  if (header.colorType === 0) return data.length === 2;
  if (header.colorType === 2) return data.length === 6;
  return (
    header.colorType === 3 && palette !== undefined && data.length >= 1 && data.length <= palette.length / 3
  );
}

/**
 * Reads the structure of a PNG. Throws IMAGE_DAMAGED when the signature or IHDR is wrong, IHDR or
 * PLTE repeats, the image data is missing or split, or a palette image has no valid PLTE. Chunks a
 * viewer would ignore (a tRNS or PLTE where the colour type allows none) are left out. A file cut
 * short inside the image data is returned with `complete: false`: whether its pixels are all
 * there is for the inflater to tell (png-image-data.ts).
 */
export function readPngLayout(bytes: Uint8Array): PngLayout {
  if (!isPng(bytes)) throw damaged("PNG signature missing");
  const chunks = walkChunks(bytes);
  const header = parseHeader(chunks.next().value);
  const usesPalette = header.colorType === 3;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  let iccp: Uint8Array | undefined;
  let exif: Uint8Array | undefined;
  let text = false;
  let animated = false;
  const imageData: Uint8Array[] = [];
  let seenImageData = false;
  let imageDataEnded = false;
  let complete = false;
  for (const chunk of chunks) {
    const { type, data } = chunk;
    if (type === "IEND") {
      complete = true;
      break;
    }
    if (type === "IDAT") {
      // The spec wants IDAT chunks consecutive; the decoder fails (and leaks) on split runs.
      if (imageDataEnded) throw damaged("PNG image data is split by other chunks");
      seenImageData = true;
      if (data.length > 0) imageData.push(data);
      if (!chunk.whole) break;
      continue;
    }
    imageDataEnded = seenImageData;
    text ||= type === "tEXt" || type === "zTXt" || type === "iTXt";
    animated ||= type === "acTL";
    // Chunks after the image data (text, time…) are not read by the decoder; a cut one ends the walk.
    if (!chunk.whole) {
      if (!seenImageData) throw damaged(`PNG ends inside its ${type} chunk`);
      break;
    }
    if (seenImageData) continue;
    if (type === "IHDR") throw damaged("PNG has a second IHDR chunk");
    if (type === "PLTE") {
      if (palette) throw damaged("PNG has a second PLTE chunk");
      const entries = data.length / 3;
      const valid =
        Number.isInteger(entries) &&
        entries >= 1 &&
        entries <= 256 &&
        header.colorType !== 0 &&
        header.colorType !== 4;
      if (usesPalette && !valid) throw damaged("PNG palette is malformed");
      if (valid) palette = data;
    } else if (type === "tRNS") {
      const valid = transparency === undefined && validTransparency(header, data, palette);
      if (valid) transparency = data;
    } else {
      if (type === "iCCP") iccp ??= data;
      if (type === "eXIf") exif ??= data;
    }
  }
  if (!seenImageData || imageData.length === 0) throw damaged("PNG has no image data");
  if (usesPalette && !palette) throw damaged("PNG palette image without a PLTE chunk");
  return { header, palette, transparency, iccp, exif, text, animated, imageData, complete };
}

/** Whether the PNG carries transparency: an alpha channel or a tRNS chunk. */
export function pngHasAlpha(layout: PngLayout): boolean {
  return layout.header.colorType === 4 || layout.header.colorType === 6 || layout.transparency !== undefined;
}
