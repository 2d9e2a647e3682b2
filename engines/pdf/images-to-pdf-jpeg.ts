/**
 * A JPEG as a PDF image XObject without re-encoding: the file's bytes become a DCTDecode stream
 * byte for byte, so no generation is lost and the page costs what the photo costs.
 */
import { isStartOfFrame, jpegHeaderSegments } from "../image/image-info.ts";

/** What the PDF image dictionary needs from a JPEG header. */
export interface JpegFrame {
  readonly width: number;
  readonly height: number;
  /** 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK. */
  readonly components: number;
  /**
   * An Adobe APP14 segment is present. Adobe's programs write 4-component JPEGs with inverted
   * values (0 = full ink), and every libjpeg-based reader flips them back when it sees this
   * segment; in a PDF the /Decode array does that flip.
   */
  readonly adobe: boolean;
}

/** SOF0 baseline, SOF1 extended sequential, SOF2 progressive: the Huffman-coded 8-bit processes PDF's DCTDecode reads. */
const PDF_FRAME_TYPES = new Set([0xc0, 0xc1, 0xc2]);

/**
 * The frame of a JPEG a PDF can carry as it is, or undefined when it needs decoding first:
 * 12-bit samples, lossless or arithmetic-coded JPEGs, or a component count PDF has no colour
 * space for. Throws IMAGE_DAMAGED (from the header walk) when the header is broken.
 */
export function readPdfJpegFrame(bytes: Uint8Array): JpegFrame | undefined {
  let frame: { marker: number; data: Uint8Array } | undefined;
  let adobe = false;
  for (const segment of jpegHeaderSegments(bytes)) {
    if (isStartOfFrame(segment.marker)) frame ??= segment;
    // "Adobe" at the start of APP14.
    else if (segment.marker === 0xee && String.fromCharCode(...segment.data.subarray(0, 5)) === "Adobe")
      adobe = true;
  }
  if (frame === undefined || frame.data.length < 6 || !PDF_FRAME_TYPES.has(frame.marker)) return undefined;
  const { data } = frame;
  const components = data[5] ?? 0;
  if (data[0] !== 8 || ![1, 3, 4].includes(components)) return undefined;
  const height = ((data[1] ?? 0) << 8) | (data[2] ?? 0);
  const width = ((data[3] ?? 0) << 8) | (data[4] ?? 0);
  return { width, height, components, adobe };
}

export const DEVICE_SPACES = { 1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK" } as const;

/** The image dictionary for a JPEG carried as DCTDecode; `colorSpace` is a name or an ICCBased reference. */
export function jpegImageDictionary(frame: JpegFrame, colorSpace: unknown): Record<string, unknown> {
  return {
    Type: "XObject",
    Subtype: "Image",
    Width: frame.width,
    Height: frame.height,
    BitsPerComponent: 8,
    ColorSpace: colorSpace,
    Filter: "DCTDecode",
    ...(frame.components === 4 && frame.adobe ? { Decode: [1, 0, 1, 0, 1, 0, 1, 0] } : {}),
  };
}
