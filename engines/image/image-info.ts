/**
 * Size, orientation and transparency of an image from its headers alone, before any decode: the
 * edge budget and the decoders' memory checks rely on it. Pure TypeScript, no WASM.
 */
import { AppError, type FileKind, sniffFileKind } from "../../contract/index.ts";
import { readBmpHeader } from "./bmp-header.ts";
import { type Orientation, readExifOrientation } from "./exif-orientation.ts";
import { undecodableImage } from "./format-name.ts";
import { readHeifHeader } from "./heif-header.ts";
import { isSrgbProfile, jpegIccProfile, pngIccProfile } from "./icc-profile.ts";
import { pngHasAlpha, readPngLayout } from "./png-chunks.ts";
import { readTiffHeader } from "./tiff-header.ts";

export type ImageKind = Extract<FileKind, "png" | "jpeg" | "webp" | "gif" | "heic" | "avif" | "tiff" | "bmp">;

/** Every image kind read here; HEIC, AVIF, TIFF and BMP are decoded in the container only. */
export const IMAGE_KINDS: readonly ImageKind[] = [
  "png",
  "jpeg",
  "webp",
  "gif",
  "heic",
  "avif",
  "tiff",
  "bmp",
];

export interface ImageInfo {
  readonly kind: ImageKind;
  /** Stored size; EXIF orientations 5–8 swap it when displayed. */
  readonly width: number;
  readonly height: number;
  readonly orientation: Orientation;
  /** Whether the image may have transparent pixels (unknown: undefined). */
  readonly hasAlpha?: boolean;
  /** Stored as grey samples (PNG colour types 0 and 4, one-component JPEG): outputs stay grey. */
  readonly grey: boolean;
  /** More than one frame (animated WebP, APNG): conversions keep the first. */
  readonly animated: boolean;
  /** EXIF, XMP, IPTC or text the outputs leave out (privacy). */
  readonly metadata: boolean;
  /**
   * The pixels need a colour transform to become sRGB: CMYK/YCCK JPEGs and embedded profiles
   * other than sRGB (icc-profile.ts).
   */
  readonly colourTransform: boolean;
  /**
   * Coded in a way only the container's decoder reads: lossless, hierarchical or arithmetic-coded
   * JPEG (frame markers other than SOF0–2), which MozJPEG refuses.
   */
  readonly containerCodec?: boolean;
}

/** An embedded profile needs a transform unless it describes sRGB; an unreadable one does too. */
const needsTransform = (profile: Uint8Array | undefined) => profile !== undefined && !isSrgbProfile(profile);

function damaged(kind: ImageKind, message: string): AppError {
  return new AppError("IMAGE_DAMAGED", `${kind.toUpperCase()}: ${message}`);
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function readPng(bytes: Uint8Array): ImageInfo {
  const layout = readPngLayout(bytes);
  const { width, height } = layout.header;
  const orientation = layout.exif ? readExifOrientation(layout.exif) : 1;
  const { colorType } = layout.header;
  return {
    kind: "png",
    width,
    height,
    orientation,
    hasAlpha: pngHasAlpha(layout),
    grey: colorType === 0 || colorType === 4,
    animated: layout.animated,
    metadata: layout.exif !== undefined || layout.text,
    colourTransform:
      layout.iccp !== undefined && needsTransform(pngIccProfile(layout.iccp) ?? new Uint8Array()),
  };
}

/** SOF markers carrying the frame size: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
export function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length field: TEM and RST0–7 (SOI/EOI are handled by the caller). */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/** One marker segment of a JPEG header: the marker byte and the segment's payload. */
export interface JpegSegment {
  readonly marker: number;
  readonly data: Uint8Array;
}

/**
 * The marker segments of a JPEG before its first scan (SOS ends the walk). Throws IMAGE_DAMAGED
 * when the header is cut short or malformed.
 */
export function* jpegHeaderSegments(bytes: Uint8Array): Generator<JpegSegment> {
  const view = viewOf(bytes);
  let at = 2;
  for (;;) {
    if (at >= bytes.length) throw damaged("jpeg", "ends before its first scan");
    if (bytes[at] !== 0xff) throw damaged("jpeg", `no marker at byte ${at}`);
    while (bytes[at] === 0xff) at++;
    if (at >= bytes.length) throw damaged("jpeg", "ends before its first scan");
    const marker = bytes[at++] ?? 0;
    if (isStandalone(marker)) continue;
    if (marker === 0xd8 || marker === 0xd9 || marker === 0x00) {
      throw damaged("jpeg", `unexpected marker 0x${marker.toString(16)} before the first scan`);
    }
    if (at + 2 > bytes.length) throw damaged("jpeg", "ends inside a marker segment");
    const length = view.getUint16(at);
    if (length < 2 || at + length > bytes.length) throw damaged("jpeg", "marker segment cut short");
    if (marker === 0xda) return;
    yield { marker, data: bytes.subarray(at + 2, at + length) };
    at += length;
  }
}

const APP1 = 0xe1;
const APP2 = 0xe2;
const APP13 = 0xed;

function readJpeg(bytes: Uint8Array): ImageInfo {
  let size: { width: number; height: number } | undefined;
  let frameMarker = 0;
  let components = 0;
  let orientation: Orientation | undefined;
  let metadata = false;
  const profileParts: Uint8Array[] = [];
  for (const { marker, data } of jpegHeaderSegments(bytes)) {
    if (isStartOfFrame(marker)) {
      if (size) throw damaged("jpeg", "more than one frame header");
      if (data.length < 6) throw damaged("jpeg", "frame header cut short");
      const view = viewOf(data);
      const height = view.getUint16(1);
      const width = view.getUint16(3);
      // A zero height is deferred to a DNL marker, which common decoders do not support.
      if (width === 0 || height === 0) throw damaged("jpeg", `frame size ${width}×${height}`);
      size = { width, height };
      frameMarker = marker;
      components = data[5] ?? 0;
    } else if (marker === APP1) {
      // EXIF ("Exif\0\0…") or XMP ("http://ns.adobe.com/xap/1.0/\0…").
      metadata = true;
      if (orientation === undefined && data[0] === 0x45 && data[1] === 0x78)
        orientation = readExifOrientation(data);
    } else if (marker === APP13) {
      metadata = true; // Photoshop IPTC
    } else if (marker === APP2) {
      profileParts.push(data);
    }
  }
  if (!size) throw damaged("jpeg", "scan before the frame header");
  return {
    kind: "jpeg",
    ...size,
    orientation: orientation ?? 1,
    hasAlpha: false,
    grey: components === 1,
    animated: false,
    metadata,
    colourTransform: components === 4 || needsTransform(jpegIccProfile(profileParts)),
    containerCodec: frameMarker > 0xc2,
  };
}

const fourCC = (bytes: Uint8Array, at: number): string =>
  String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

const uint24 = (bytes: Uint8Array, at: number): number =>
  (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);

/** RIFF chunks after "WEBP": four-character code, little-endian size, data padded to even length. */
function* riffChunks(bytes: Uint8Array, from = 12): Generator<{ type: string; data: Uint8Array }> {
  const view = viewOf(bytes);
  const end = Math.min(bytes.length, 8 + view.getUint32(4, true));
  let at = from;
  while (at + 8 <= end) {
    const size = view.getUint32(at + 4, true);
    if (at + 8 + size > end) throw damaged("webp", `${fourCC(bytes, at)} chunk cut short`);
    yield { type: fourCC(bytes, at), data: bytes.subarray(at + 8, at + 8 + size) };
    at += 8 + size + (size % 2);
  }
}

/** VP8X feature flags. */
const WEBP_ANIMATION = 0x02;
const WEBP_XMP = 0x04;
const WEBP_EXIF = 0x08;
const WEBP_ALPHA = 0x10;
const WEBP_ICC = 0x20;

/** What a WebP's first chunk says: its size, and the VP8X flags or VP8L alpha hint. */
interface WebpHeader {
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
  /** VP8X feature flags; 0 for a simple (VP8 or VP8L only) file. */
  readonly flags: number;
  /** Where the chunk after the first one starts. */
  readonly next: number;
}

/**
 * Reads the first chunk's header, which holds the image size within the file's first 30 bytes.
 * The chunk's data is not needed: a plain `VP8 ` or `VP8L` chunk is the whole bitstream, often
 * megabytes, and only its first ten bytes are read here (the decoder finds a cut-short bitstream).
 */
function readWebpHeader(bytes: Uint8Array): WebpHeader {
  if (bytes.length < 20) throw damaged("webp", "cut short");
  const view = viewOf(bytes);
  const type = fourCC(bytes, 12);
  const size = view.getUint32(16, true);
  if (20 + size > 8 + view.getUint32(4, true)) throw damaged("webp", `${type} chunk beyond the RIFF size`);
  const next = 20 + size + (size % 2);
  const data = bytes.subarray(20, Math.min(bytes.length, 20 + size));
  if (type === "VP8 ") {
    // Frame tag (3 bytes, bit 0 clear on key frames), start code 9D 01 2A, then 14-bit sizes.
    if (
      size < 10 ||
      data.length < 10 ||
      (data[0] ?? 1) & 1 ||
      data[3] !== 0x9d ||
      data[4] !== 0x01 ||
      data[5] !== 0x2a
    ) {
      throw damaged("webp", "lossy bitstream header invalid");
    }
    const width = view.getUint16(26, true) & 0x3fff;
    const height = view.getUint16(28, true) & 0x3fff;
    if (width === 0 || height === 0) throw damaged("webp", "zero size");
    return { width, height, hasAlpha: false, flags: 0, next };
  }
  if (type === "VP8L") {
    // Signature 0x2F, then width-1 (14 bits), height-1 (14 bits), alpha hint, 3-bit version 0.
    if (size < 5 || data.length < 5 || data[0] !== 0x2f)
      throw damaged("webp", "lossless bitstream header invalid");
    const bits = view.getUint32(21, true);
    if (bits >>> 29 !== 0) throw damaged("webp", "lossless bitstream version unknown");
    const width = (bits & 0x3fff) + 1;
    const height = ((bits >>> 14) & 0x3fff) + 1;
    return { width, height, hasAlpha: ((bits >>> 28) & 1) === 1, flags: 0, next };
  }
  if (type === "VP8X") {
    if (size < 10 || data.length < 10) throw damaged("webp", "extended header cut short");
    const flags = data[0] ?? 0;
    const width = uint24(data, 4) + 1;
    const height = uint24(data, 7) + 1;
    return { width, height, hasAlpha: (flags & WEBP_ALPHA) !== 0, flags, next };
  }
  throw damaged("webp", `unknown first chunk ${JSON.stringify(type)}`);
}

function readWebp(bytes: Uint8Array): ImageInfo {
  const { width, height, hasAlpha, flags, next } = readWebpHeader(bytes);
  let orientation: Orientation = 1;
  let profile: Uint8Array | undefined;
  // EXIF usually follows the image data: these chunks need the whole file.
  if (flags & (WEBP_EXIF | WEBP_ICC)) {
    for (const chunk of riffChunks(bytes, next)) {
      if (chunk.type === "EXIF") orientation = readExifOrientation(chunk.data);
      if (chunk.type === "ICCP") profile = chunk.data;
    }
  }
  return {
    kind: "webp",
    width,
    height,
    orientation,
    hasAlpha,
    grey: false,
    animated: (flags & WEBP_ANIMATION) !== 0,
    metadata: (flags & (WEBP_EXIF | WEBP_XMP)) !== 0,
    colourTransform: (flags & WEBP_ICC) !== 0 && needsTransform(profile ?? new Uint8Array()),
  };
}

/**
 * GIF: the logical screen size, and transparency when a graphic control extension before the first
 * image declares a transparent colour.
 */
function gifSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 13) throw damaged("gif", "logical screen descriptor cut short");
  const view = viewOf(bytes);
  const width = view.getUint16(6, true);
  const height = view.getUint16(8, true);
  if (width === 0 || height === 0) throw damaged("gif", `logical screen ${width}×${height}`);
  return { width, height };
}

function readGif(bytes: Uint8Array): ImageInfo {
  const { width, height } = gifSize(bytes);
  const packed = bytes[10] ?? 0;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let hasAlpha: boolean | undefined;
  // Extensions are 0x21, label, then data sub-blocks ending with a zero-length block.
  while (at + 1 < bytes.length && bytes[at] === 0x21) {
    const label = bytes[at + 1];
    at += 2;
    if (label === 0xf9 && hasAlpha === undefined && bytes[at] === 4)
      hasAlpha = ((bytes[at + 1] ?? 0) & 1) === 1;
    while (at < bytes.length && bytes[at] !== 0) at += (bytes[at] ?? 0) + 1;
    at++;
  }
  if (bytes[at] !== 0x2c) throw damaged("gif", "no image descriptor");
  // Frames are counted by the decoder (sharp, in the container): GIFs are not decoded at the edge.
  return {
    kind: "gif",
    width,
    height,
    orientation: 1,
    hasAlpha: hasAlpha ?? false,
    grey: false,
    animated: false,
    metadata: false,
    colourTransform: false,
  };
}

/**
 * HEIC and AVIF: the primary image's `ispe` size, with `irot`/`imir` as the equivalent orientation
 * (the decoder applies them, so the output's size is the turned one, as for EXIF orientation).
 */
function readHeif(bytes: Uint8Array, kind: "heic" | "avif"): ImageInfo {
  const header = readHeifHeader(bytes);
  return {
    kind,
    width: header.width,
    height: header.height,
    orientation: header.orientation,
    hasAlpha: header.hasAlpha,
    grey: false,
    animated: false,
    metadata: header.metadata,
    colourTransform: needsTransform(header.icc),
  };
}

/** TIFF: the first page's directory; later pages are counted by the decoder. */
function readTiff(bytes: Uint8Array): ImageInfo {
  const header = readTiffHeader(bytes);
  return {
    kind: "tiff",
    width: header.width,
    height: header.height,
    orientation: header.orientation,
    hasAlpha: header.hasAlpha,
    grey: (header.photometric === 0 || header.photometric === 1) && header.samplesPerPixel <= 2,
    animated: false,
    metadata: header.metadata,
    colourTransform: header.photometric === 5 || needsTransform(header.icc),
  };
}

function readBmp(bytes: Uint8Array): ImageInfo {
  const header = readBmpHeader(bytes);
  return {
    kind: "bmp",
    width: header.width,
    height: header.height,
    orientation: 1,
    hasAlpha: header.masks.alpha !== 0 && header.bitCount >= 16,
    grey: false,
    animated: false,
    metadata: false,
    colourTransform: needsTransform(header.icc),
  };
}

/**
 * Reads an image's header. Throws UNSUPPORTED_FILE_TYPE for bytes of no image kind we read, and
 * IMAGE_DAMAGED when the header is cut short or invalid.
 */
export function readImageInfo(bytes: Uint8Array): ImageInfo {
  const kind = sniffFileKind(bytes.subarray(0, 256));
  switch (kind) {
    case "png":
      return readPng(bytes);
    case "jpeg":
      return readJpeg(bytes);
    case "webp":
      return readWebp(bytes);
    case "gif":
      return readGif(bytes);
    case "heic":
    case "avif":
    case "tiff":
    case "bmp":
      // Their messages name the format: the screen says which kind of image could not be read.
      try {
        return kind === "tiff" ? readTiff(bytes) : kind === "bmp" ? readBmp(bytes) : readHeif(bytes, kind);
      } catch (error) {
        throw undecodableImage(kind, error);
      }
    default:
      throw new AppError("UNSUPPORTED_FILE_TYPE", "not an image kind we read");
  }
}

/** PNG: the signature, then IHDR, whose data starts with the big-endian width and height. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 24) throw damaged("png", "cut short");
  if (fourCC(bytes, 12) !== "IHDR") throw damaged("png", "does not start with an IHDR chunk");
  const view = viewOf(bytes);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * An image's stored size from the start of its file, all the upload check needs to refuse a pixel
 * bomb before anything is stored or decoded. PNG, WebP and GIF hold it in their first 30 bytes,
 * whatever follows (a WebP's first chunk is often its whole bitstream); JPEG, TIFF, HEIC, AVIF and
 * BMP headers are read as readImageInfo reads them. Throws as readImageInfo does when `head` does
 * not reach the size.
 */
export function readImageSize(head: Uint8Array): { width: number; height: number } {
  switch (sniffFileKind(head.subarray(0, 256))) {
    case "png":
      return pngSize(head);
    case "webp": {
      const { width, height } = readWebpHeader(head);
      return { width, height };
    }
    case "gif":
      return gifSize(head);
    default: {
      const { width, height } = readImageInfo(head);
      return { width, height };
    }
  }
}

/**
 * Whether the edge codecs convert this image exactly as the container does: they decode PNG, JPEG
 * (Huffman-coded baseline, extended and progressive) and WebP, and have no colour engine (GIF,
 * HEIC, AVIF, TIFF, BMP, other JPEG codings and images needing a colour transform go to sharp).
 */
export function convertibleAtEdge(info: ImageInfo): boolean {
  return (
    (info.kind === "png" || info.kind === "jpeg" || info.kind === "webp") &&
    !info.colourTransform &&
    info.containerCodec !== true
  );
}
