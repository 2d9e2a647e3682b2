/**
 * Structural check of an encoded JPEG before it is handed out: SOI first, EOI last, well-formed
 * marker segments, the expected frame size and component count, and scans that bring every DCT
 * coefficient of every component to full precision (so a decoder shows the whole image, not a
 * blurred or partial one). It walks the bytes once and needs no decoder, so it costs no WASM
 * memory; decoding the output back would need a third codec instance (~17 MB plus 4 bytes per
 * pixel at the edge).
 */
import { AppError } from "../../contract/index.ts";
import {
  EOI,
  entropyCodedEnd,
  SOF_BASELINE,
  SOF_EXTENDED,
  SOF_PROGRESSIVE,
  SOI,
  SOS,
} from "./jpeg-markers.ts";

export interface JpegExpectation {
  readonly width: number;
  readonly height: number;
  readonly components: number;
}

function corrupt(message: string): AppError {
  return new AppError("INTERNAL", `encoded JPEG failed verification: ${message}`);
}

/** Offset of the next marker after entropy-coded data starting at `at`. */
function skipEntropyCodedData(bytes: Uint8Array, at: number): number {
  const end = entropyCodedEnd(bytes, at);
  if (end < 0) throw corrupt("scan data runs to the end without EOI");
  return end;
}

export interface JpegCheckOptions {
  /**
   * Bytes may follow the first EOI, as in files from cameras and phones that append data (an
   * Ultra HDR gain map, MPF pictures): the check ends at that EOI.
   */
  readonly trailingData?: boolean;
  /**
   * Scans may leave coefficients unfinished (an input: decoders show what the scans hold); the
   * scans must still all be there, up to the EOI.
   */
  readonly unfinishedCoefficients?: boolean;
}

/** `expected` undefined: any frame size and component count. */
export function checkJpeg(
  bytes: Uint8Array,
  expected: JpegExpectation | undefined,
  options: JpegCheckOptions = {},
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) throw corrupt("no SOI marker");
  if (!options.trailingData && (bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== EOI))
    throw corrupt("does not end with EOI");
  let componentIds: number[] | undefined;
  /** Per component: which of the 64 coefficients some scan has finished (successive approximation 0). */
  let finished: boolean[][] = [];
  let scans = 0;
  let at = 2;
  for (;;) {
    if (bytes[at] !== 0xff) throw corrupt(`no marker at byte ${at}`);
    while (bytes[at] === 0xff) at++;
    const marker = bytes[at++] ?? 0;
    if (marker === EOI) {
      if (at !== bytes.length && !options.trailingData) throw corrupt("EOI before the end of the file");
      break;
    }
    if (at + 2 > bytes.length) throw corrupt("cut inside a marker");
    const length = view.getUint16(at);
    if (length < 2 || at + length > bytes.length)
      throw corrupt(`segment 0x${marker.toString(16)} overruns the file`);
    const body = at + 2;
    if (marker === SOF_BASELINE || marker === SOF_EXTENDED || marker === SOF_PROGRESSIVE) {
      if (componentIds) throw corrupt("two frame headers");
      const height = view.getUint16(body + 1);
      const width = view.getUint16(body + 3);
      const count = bytes[body + 5] ?? 0;
      if (expected !== undefined && (width !== expected.width || height !== expected.height)) {
        throw corrupt(`frame is ${width}×${height}, expected ${expected.width}×${expected.height}`);
      }
      if ((expected !== undefined && count !== expected.components) || length !== 8 + 3 * count) {
        throw corrupt(`frame has ${count} components, expected ${expected?.components ?? count}`);
      }
      componentIds = Array.from({ length: count }, (_, i) => bytes[body + 6 + 3 * i] ?? 0);
      finished = componentIds.map(() => new Array<boolean>(64).fill(false));
    } else if (marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      throw corrupt(`unexpected frame type 0x${marker.toString(16)}`);
    } else if (marker === SOS) {
      if (!componentIds) throw corrupt("scan before the frame header");
      const count = bytes[body] ?? 0;
      if (count < 1 || length !== 6 + 2 * count) throw corrupt("malformed scan header");
      const spectralStart = bytes[body + 1 + 2 * count] ?? 0;
      const spectralEnd = bytes[body + 2 + 2 * count] ?? 0;
      const approximationLow = (bytes[body + 3 + 2 * count] ?? 0) & 0x0f;
      if (spectralStart > spectralEnd || spectralEnd > 63) throw corrupt("scan spectral range invalid");
      for (let i = 0; i < count; i++) {
        const index = componentIds.indexOf(bytes[body + 1 + 2 * i] ?? -1);
        const coefficients = finished[index];
        if (!coefficients) throw corrupt("scan of an unknown component");
        if (approximationLow === 0) coefficients.fill(true, spectralStart, spectralEnd + 1);
      }
      scans++;
      at = skipEntropyCodedData(bytes, at + length);
      continue;
    }
    at += length;
  }
  if (!componentIds) throw corrupt("no frame header");
  if (scans === 0) throw corrupt("no scan");
  if (!options.unfinishedCoefficients && finished.some((coefficients) => coefficients.includes(false))) {
    throw corrupt("scans leave some coefficients unfinished");
  }
}

/**
 * An input JPEG, before it is decoded or embedded as it is: refused as IMAGE_DAMAGED when it is
 * cut short or malformed (a walk of its structure up to the first EOI), so every image tool
 * answers the same for a half-downloaded photo where a decoder would quietly grey out its lower
 * part (MozJPEG and browsers do; libvips refuses it).
 */
export function checkInputJpeg(
  bytes: Uint8Array,
  expected?: JpegExpectation,
  options: Omit<JpegCheckOptions, "trailingData"> = {},
): void {
  try {
    checkJpeg(bytes, expected, { ...options, trailingData: true });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new AppError("IMAGE_DAMAGED", "The JPEG is cut short or malformed.", undefined, detail);
  }
}
