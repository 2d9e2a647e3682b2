/**
 * A minimal uncompressed TIFF (one strip, 8- or 16-bit grey, RGB or RGBA with unassociated alpha,
 * optional ICC profile): how pixels decoded outside libvips (HEIC by libheif, BMP by bmp-decode.ts)
 * reach sharp with their colour profile, so that one pipeline converts every kind to sRGB.
 */
export interface RawPixels {
  readonly width: number;
  readonly height: number;
  /** 1 (grey), 3 (RGB) or 4 (RGBA). */
  readonly channels: 1 | 3 | 4;
  /** Samples in rows, top first; 16-bit samples little-endian. */
  readonly data: Uint8Array;
  /** 8 unless given. */
  readonly bitsPerSample?: 8 | 16;
  readonly icc?: Uint8Array | undefined;
}

const SHORT = 3;
const LONG = 4;
const UNDEFINED = 7;

export function writeTiff(pixels: RawPixels): Uint8Array {
  const { width, height, channels, data, icc } = pixels;
  const bits = pixels.bitsPerSample ?? 8;
  if (data.length !== (width * height * channels * bits) / 8)
    throw new Error("pixel data does not match its size");
  const entries: [tag: number, type: number, count: number, value: number][] = [];
  // Layout: header (8), pixels, then bits-per-sample values, ICC profile, directory.
  let at = 8 + data.length + (data.length % 2);
  const bitsAt = at;
  at += channels * 2;
  const iccAt = at;
  if (icc) at += icc.length + (icc.length % 2);
  const ifdAt = at;
  entries.push([256, LONG, 1, width], [257, LONG, 1, height]);
  entries.push([258, SHORT, channels, channels <= 2 ? bits : bitsAt]);
  entries.push([259, SHORT, 1, 1], [262, SHORT, 1, channels === 1 ? 1 : 2]);
  entries.push([273, LONG, 1, 8], [277, SHORT, 1, channels], [278, LONG, 1, height]);
  entries.push([279, LONG, 1, data.length], [284, SHORT, 1, 1]);
  if (channels === 4) entries.push([338, SHORT, 1, 2]);
  if (icc) entries.push([34675, UNDEFINED, icc.length, iccAt]);
  const out = new Uint8Array(ifdAt + 2 + entries.length * 12 + 4);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 42, 0], 0);
  view.setUint32(4, ifdAt, true);
  out.set(data, 8);
  for (let i = 0; i < channels; i++) view.setUint16(bitsAt + i * 2, bits, true);
  if (icc) out.set(icc, iccAt);
  view.setUint16(ifdAt, entries.length, true);
  entries.forEach(([tag, type, count, value], i) => {
    const entry = ifdAt + 2 + i * 12;
    view.setUint16(entry, tag, true);
    view.setUint16(entry + 2, type, true);
    view.setUint32(entry + 4, count, true);
    if (type === SHORT && count === 1) view.setUint16(entry + 8, value, true);
    else view.setUint32(entry + 8, value, true);
  });
  return out;
}
