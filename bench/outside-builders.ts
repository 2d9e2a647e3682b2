/**
 * Image files of kinds and shapes the corpora are thin on, written byte by byte: a baseline JPEG
 * encoder (any sampling, restart markers, CMYK and YCCK with Adobe's marker, APP segments spliced
 * in), a PNG writer (every colour type and bit depth, tRNS, Adam7, APNG, ancillary chunks), BMP
 * (core, info and V5 headers, bottom-up and top-down, bit fields, RLE8) and a multi-page TIFF.
 * Used by bench/outside-images.ts; none of it is product code.
 */
import { deflateSync } from "node:zlib";
import { crc32 } from "../engines/image/png-encode.ts";
import { ADAM7 } from "../engines/image/png-image-data.ts";

/** Pixels as a function of position: RGB(A) in 0–255. */
export type Paint = (x: number, y: number) => readonly number[];

/**
 * A scene with a different colour in each quadrant, gradients and a diagonal stripe, so a flip, a
 * turn or a colour error shows in a coarse grid. No pixel is near white (the PDF check finds the
 * picture on the page by its non-white box).
 */
export function scene(width: number, height: number, alpha = false): Paint {
  return (x, y) => {
    const left = x < width / 2;
    const top = y < height / 2;
    const fx = x / width;
    const fy = y / height;
    let rgb: number[];
    if (top && left) rgb = [200, 40 + 100 * fy, 40];
    else if (top) rgb = [40, 170, 60 + 120 * fx];
    else if (left) rgb = [40 + 80 * fx, 50, 190];
    else rgb = [210, 190, 40 + 60 * fy];
    if (Math.abs(x / width - y / height) < 0.04) rgb = [20, 20, 20];
    const px = rgb.map((v) => Math.round(Math.min(225, v + ((x * 7 + y * 13) % 11) - 5)));
    return alpha ? [...px, Math.round(130 + 125 * fx)] : px;
  };
}

// ---------------------------------------------------------------------------------------------
// JPEG (baseline, Huffman tables of fixed code lengths: valid, not optimal).

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
];

const COS = Array.from({ length: 64 }, (_, i) => {
  const x = i >> 3;
  const u = i & 7;
  return Math.cos(((2 * x + 1) * u * Math.PI) / 16) * (u === 0 ? Math.SQRT1_2 : 1) * 0.5;
});

function fdct(block: Float64Array): Float64Array {
  const temp = new Float64Array(64);
  const out = new Float64Array(64);
  for (let y = 0; y < 8; y++)
    for (let u = 0; u < 8; u++) {
      let sum = 0;
      for (let x = 0; x < 8; x++) sum += (block[y * 8 + x] ?? 0) * (COS[x * 8 + u] ?? 0);
      temp[y * 8 + u] = sum;
    }
  for (let u = 0; u < 8; u++)
    for (let v = 0; v < 8; v++) {
      let sum = 0;
      for (let y = 0; y < 8; y++) sum += (temp[y * 8 + u] ?? 0) * (COS[y * 8 + v] ?? 0);
      out[v * 8 + u] = sum;
    }
  return out;
}

class BitWriter {
  readonly bytes: number[] = [];
  #buffer = 0;
  #count = 0;
  write(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.#buffer = (this.#buffer << 1) | ((code >> i) & 1);
      if (++this.#count === 8) this.#flushByte();
    }
  }
  #flushByte(): void {
    this.bytes.push(this.#buffer);
    if (this.#buffer === 0xff) this.bytes.push(0);
    this.#buffer = 0;
    this.#count = 0;
  }
  /** Pads the last byte with 1 bits. */
  align(): void {
    while (this.#count !== 0) this.write(1, 1);
  }
}

/** Symbol → code for a canonical table in which every symbol has the same length. */
function flatCodes(symbols: readonly number[]): Map<number, number> {
  return new Map(symbols.map((symbol, i) => [symbol, i]));
}
const DC_SYMBOLS = Array.from({ length: 12 }, (_, i) => i);
const AC_SYMBOLS_ALL = [
  0x00,
  0xf0,
  ...Array.from({ length: 16 }, (_, run) =>
    Array.from({ length: 10 }, (_, size) => (run << 4) | (size + 1)),
  ).flat(),
];
const DC_LENGTH = 4;
const AC_LENGTH = 9;
const DC_CODES = flatCodes(DC_SYMBOLS);
const AC_CODES = flatCodes(AC_SYMBOLS_ALL);

function huffmanSegment(
  tableClass: number,
  id: number,
  symbols: readonly number[],
  length: number,
): number[] {
  const counts = new Array(16).fill(0);
  counts[length - 1] = symbols.length;
  return segment(0xc4, [(tableClass << 4) | id, ...counts, ...symbols]);
}

function segment(marker: number, body: readonly number[]): number[] {
  const length = body.length + 2;
  return [0xff, marker, length >> 8, length & 255, ...body];
}

const QUANT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
].map((q) => Math.max(1, Math.round(q * 0.2)));

function bitSize(value: number): number {
  let magnitude = Math.abs(value);
  let size = 0;
  while (magnitude > 0) {
    size++;
    magnitude >>= 1;
  }
  return size;
}

function encodeValue(bits: BitWriter, value: number, size: number): void {
  if (size === 0) return;
  bits.write(value < 0 ? value + (1 << size) - 1 : value, size);
}

export interface JpegOptions {
  /** "ycc" (JFIF YCbCr), "gray", "cmyk" (Adobe, transform 0) or "ycck" (Adobe, transform 2). */
  readonly color: "ycc" | "gray" | "cmyk" | "ycck";
  /** Horizontal and vertical sampling of the first component (the others 1×1): [2,2] is 4:2:0. */
  readonly sampling?: readonly [number, number];
  /** MCUs between restart markers (0: none). */
  readonly restart?: number;
  /** APP segments (whole, with marker and length) put after SOI. */
  readonly segments?: readonly (readonly number[])[];
}

/**
 * A baseline JPEG of `paint`. For CMYK and YCCK, `paint` gives ink in 0–255 (0 none) and the file
 * stores it inverted as Photoshop does (Adobe's marker tells readers).
 */
export function encodeJpeg(width: number, height: number, paint: Paint, options: JpegOptions): Uint8Array {
  const [h0, v0] = options.sampling ?? [1, 1];
  const components = options.color === "gray" ? 1 : options.color === "ycc" ? 3 : 4;
  const sampling = Array.from({ length: components }, (_, c) =>
    c === 0 || (options.color === "ycck" && c === 3) || options.color === "cmyk" ? [h0, v0] : [1, 1],
  );
  const hMax = Math.max(...sampling.map((s) => s[0] ?? 1));
  const vMax = Math.max(...sampling.map((s) => s[1] ?? 1));
  const sample = (x: number, y: number): number[] => {
    const p = paint(Math.min(width - 1, x), Math.min(height - 1, y));
    const [r = 0, g = 0, b = 0, k = 0] = p;
    if (options.color === "gray") return [0.299 * r + 0.587 * g + 0.114 * b];
    if (options.color === "cmyk") return [255 - r, 255 - g, 255 - b, 255 - k];
    // YCbCr of the colour (ycc), or of the inks taken as RGB (ycck, whose K is stored inverted).
    const y0 = 0.299 * r + 0.587 * g + 0.114 * b;
    const ycc = [
      y0,
      128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
      128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
    ];
    return options.color === "ycc" ? ycc : [...ycc, 255 - k];
  };
  const mcuWidth = 8 * hMax;
  const mcuHeight = 8 * vMax;
  const mcusX = Math.ceil(width / mcuWidth);
  const mcusY = Math.ceil(height / mcuHeight);
  const bits = new BitWriter();
  const predictors = new Array(components).fill(0);
  let restartCount = 0;
  let mcuIndex = 0;
  for (let my = 0; my < mcusY; my++)
    for (let mx = 0; mx < mcusX; mx++) {
      if (options.restart && mcuIndex > 0 && mcuIndex % options.restart === 0) {
        bits.align();
        bits.bytes.push(0xff, 0xd0 + (restartCount++ % 8));
        predictors.fill(0);
      }
      mcuIndex++;
      for (let c = 0; c < components; c++) {
        const [h = 1, v = 1] = sampling[c] ?? [];
        const sx = hMax / h;
        const sy = vMax / v;
        for (let by = 0; by < v; by++)
          for (let bx = 0; bx < h; bx++) {
            const block = new Float64Array(64);
            for (let y = 0; y < 8; y++)
              for (let x = 0; x < 8; x++) {
                const px = (mx * mcuWidth) / sx + bx * 8 + x;
                const py = (my * mcuHeight) / sy + by * 8 + y;
                // Subsampled components average their box of full-size pixels.
                let sum = 0;
                for (let dy = 0; dy < sy; dy++)
                  for (let dx = 0; dx < sx; dx++) sum += sample(px * sx + dx, py * sy + dy)[c] ?? 0;
                block[y * 8 + x] = sum / (sx * sy) - 128;
              }
            const coefficients = fdct(block);
            const quantised = ZIGZAG.map((i) => Math.round((coefficients[i] ?? 0) / (QUANT[i] ?? 1)));
            const dc = (quantised[0] ?? 0) - predictors[c];
            predictors[c] = quantised[0];
            const dcSize = bitSize(dc);
            bits.write(DC_CODES.get(dcSize) ?? 0, DC_LENGTH);
            encodeValue(bits, dc, dcSize);
            let run = 0;
            for (let i = 1; i < 64; i++) {
              const value = quantised[i] ?? 0;
              if (value === 0) {
                run++;
                continue;
              }
              while (run > 15) {
                bits.write(AC_CODES.get(0xf0) ?? 0, AC_LENGTH);
                run -= 16;
              }
              const size = bitSize(value);
              bits.write(AC_CODES.get((run << 4) | size) ?? 0, AC_LENGTH);
              encodeValue(bits, value, size);
              run = 0;
            }
            if (run > 0) bits.write(AC_CODES.get(0) ?? 0, AC_LENGTH);
          }
      }
    }
  bits.align();
  const header: number[] = [0xff, 0xd8];
  if (options.color === "ycc" || options.color === "gray")
    header.push(...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  for (const extra of options.segments ?? []) header.push(...extra);
  if (options.color === "cmyk" || options.color === "ycck")
    header.push(...segment(0xee, [...ascii("Adobe"), 0, 100, 0, 0, 0, 0, options.color === "ycck" ? 2 : 0]));
  header.push(...segment(0xdb, [0, ...ZIGZAG.map((i) => QUANT[i] ?? 1)]));
  header.push(
    ...segment(0xc0, [
      8,
      height >> 8,
      height & 255,
      width >> 8,
      width & 255,
      components,
      ...sampling.flatMap(([h = 1, v = 1], c) => [c + 1, (h << 4) | v, 0]),
    ]),
  );
  header.push(
    ...huffmanSegment(0, 0, DC_SYMBOLS, DC_LENGTH),
    ...huffmanSegment(1, 0, AC_SYMBOLS_ALL, AC_LENGTH),
  );
  if (options.restart) header.push(...segment(0xdd, [options.restart >> 8, options.restart & 255]));
  header.push(...segment(0xda, [components, ...sampling.flatMap((_, c) => [c + 1, 0]), 0, 63, 0]));
  append(header, bits.bytes);
  return new Uint8Array([...header, 0xff, 0xd9]);
}

/** Appends `source` to `target` (a spread call overflows the stack past some 100,000 items). */
function append(target: number[], source: ArrayLike<number>): void {
  for (let i = 0; i < source.length; i++) target.push(source[i] ?? 0);
}

export function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0) & 255);
}

/** An APP1 Exif segment: Orientation, a long description, and a JPEG thumbnail in IFD1. */
export function exifSegment(orientation: number, description: string, thumbnail?: Uint8Array): number[] {
  const le16 = (v: number) => [v & 255, (v >> 8) & 255];
  const le32 = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
  const text = [...ascii(description), 0];
  // TIFF header (8) + IFD0 (2 + 2×12 + 4) + IFD1 (2 + 2×12 + 4) + description + thumbnail.
  const ifd0 = 8;
  const ifd1 = ifd0 + 2 + 2 * 12 + 4;
  const textAt = ifd1 + 2 + 2 * 12 + 4;
  const thumbAt = textAt + text.length;
  const tiff = [
    ...ascii("II"),
    ...le16(42),
    ...le32(ifd0),
    ...le16(2),
    ...le16(0x010e),
    ...le16(2),
    ...le32(text.length),
    ...le32(textAt),
    ...le16(0x0112),
    ...le16(3),
    ...le32(1),
    ...le16(orientation),
    ...le16(0),
    ...le32(thumbnail ? ifd1 : 0),
    ...le16(2),
    ...le16(0x0201),
    ...le16(4),
    ...le32(1),
    ...le32(thumbAt),
    ...le16(0x0202),
    ...le16(4),
    ...le32(1),
    ...le32(thumbnail?.length ?? 0),
    ...le32(0),
    ...text,
    ...(thumbnail ?? []),
  ];
  return segment(0xe1, [...ascii("Exif"), 0, 0, ...tiff]);
}

/** An APP1 XMP packet of about `size` bytes. */
export function xmpSegment(size: number): number[] {
  const head = "http://ns.adobe.com/xap/1.0/\0";
  const body = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>${"<!-- history -->".repeat(Math.ceil(size / 16))}</rdf:Description></rdf:RDF></x:xmpmeta>`;
  return segment(0xe1, ascii(head + body).slice(0, 65_000));
}

/** Splices APP segments in after a JPEG's SOI. */
export function withSegments(jpeg: Uint8Array, segments: readonly (readonly number[])[]): Uint8Array {
  return new Uint8Array([...jpeg.subarray(0, 2), ...segments.flat(), ...jpeg.subarray(2)]);
}

// ---------------------------------------------------------------------------------------------
// PNG.

const be32 = (v: number) => [(v >>> 24) & 255, (v >> 16) & 255, (v >> 8) & 255, v & 255];

export function pngChunk(type: string, data: readonly number[] | Uint8Array): number[] {
  const body = [...ascii(type), ...data];
  return [...be32(data.length), ...body, ...be32(crc32(Uint8Array.from(body)))];
}

export interface PngOptions {
  /** 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA. */
  readonly colorType: 0 | 2 | 3 | 4 | 6;
  readonly depth: 1 | 2 | 4 | 8 | 16;
  readonly interlace?: boolean;
  /** For colour type 3: the palette (RGB or RGBA entries, alpha going to tRNS). */
  readonly palette?: readonly (readonly number[])[];
  /** Chunks put before IDAT (whole, from pngChunk). */
  readonly chunks?: readonly (readonly number[])[];
  /** For colour types 0/2: the tRNS colour key (in the file's sample scale). */
  readonly transparent?: readonly number[];
}

/**
 * The samples of pixel (x, y) in the file's scale: `paint` gives 0–255 RGB(A); palette images
 * take the nearest palette entry.
 */
function pngSamples(paint: Paint, options: PngOptions): (x: number, y: number) => number[] {
  const max = (1 << options.depth) - 1;
  const scale = (v: number) =>
    options.depth === 16
      ? Math.min(65535, Math.round((v / 255) * 65535 + ((v * 37) % 200)))
      : Math.round((v / 255) * max);
  return (x, y) => {
    const [r = 0, g = 0, b = 0, a = 255] = paint(x, y);
    const gray = 0.299 * r + 0.587 * g + 0.114 * b;
    switch (options.colorType) {
      case 0:
        return [scale(gray)];
      case 2:
        return [scale(r), scale(g), scale(b)];
      case 4:
        return [scale(gray), scale(a)];
      case 6:
        return [scale(r), scale(g), scale(b), scale(a)];
      case 3: {
        let best = 0;
        let bestDistance = Number.POSITIVE_INFINITY;
        (options.palette ?? []).forEach(([pr = 0, pg = 0, pb = 0, pa = 255], i) => {
          const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2 + (pa - a) ** 2;
          if (d < bestDistance) [best, bestDistance] = [i, d];
        });
        return [best];
      }
    }
  };
}

function packRow(samples: readonly number[], depth: number): number[] {
  if (depth === 8) return [...samples];
  if (depth === 16) return samples.flatMap((s) => [(s >> 8) & 255, s & 255]);
  const out: number[] = [];
  const perByte = 8 / depth;
  for (let i = 0; i < samples.length; i += perByte) {
    let byte = 0;
    for (let j = 0; j < perByte; j++)
      byte |= ((samples[i + j] ?? 0) & ((1 << depth) - 1)) << (8 - depth * (j + 1));
    out.push(byte);
  }
  return out;
}

function pngImageData(width: number, height: number, paint: Paint, options: PngOptions): number[] {
  const samplesAt = pngSamples(paint, options);
  const raw: number[] = [];
  const passes = options.interlace ? ADAM7 : ([[0, 0, 1, 1]] as const);
  for (const [x0, y0, dx, dy] of passes) {
    for (let y = y0; y < height; y += dy) {
      const row: number[] = [];
      for (let x = x0; x < width; x += dx) row.push(...samplesAt(x, y));
      if (row.length === 0) continue;
      raw.push(0);
      append(raw, packRow(row, options.depth));
    }
  }
  return raw;
}

export function encodePng(width: number, height: number, paint: Paint, options: PngOptions): Uint8Array {
  const chunks: number[] = [
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk("IHDR", [
      ...be32(width),
      ...be32(height),
      options.depth,
      options.colorType,
      0,
      0,
      options.interlace ? 1 : 0,
    ]),
  ];
  for (const extra of options.chunks ?? []) chunks.push(...extra);
  if (options.palette) {
    chunks.push(
      ...pngChunk(
        "PLTE",
        options.palette.flatMap(([r = 0, g = 0, b = 0]) => [r, g, b]),
      ),
    );
    if (options.palette.some((entry) => entry.length > 3))
      chunks.push(
        ...pngChunk(
          "tRNS",
          options.palette.map((entry) => entry[3] ?? 255),
        ),
      );
  }
  if (options.transparent)
    chunks.push(
      ...pngChunk(
        "tRNS",
        options.transparent.flatMap((v) => [(v >> 8) & 255, v & 255]),
      ),
    );
  append(chunks, pngChunk("IDAT", deflateSync(Buffer.from(pngImageData(width, height, paint, options)))));
  chunks.push(...pngChunk("IEND", []));
  return new Uint8Array(chunks);
}

/** An animated PNG: each frame full size (`paints`), the first also the default image. */
export function encodeApng(width: number, height: number, paints: readonly Paint[]): Uint8Array {
  const options: PngOptions = { colorType: 6, depth: 8 };
  const out: number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  out.push(...pngChunk("IHDR", [...be32(width), ...be32(height), 8, 6, 0, 0, 0]));
  out.push(...pngChunk("acTL", [...be32(paints.length), ...be32(0)]));
  let sequence = 0;
  paints.forEach((paint, frame) => {
    // Dispose to background after each frame, blend over.
    out.push(
      ...pngChunk("fcTL", [
        ...be32(sequence++),
        ...be32(width),
        ...be32(height),
        ...be32(0),
        ...be32(0),
        0,
        10,
        0,
        100,
        1,
        1,
      ]),
    );
    const data = [...deflateSync(Buffer.from(pngImageData(width, height, paint, options)))];
    append(out, frame === 0 ? pngChunk("IDAT", data) : pngChunk("fdAT", [...be32(sequence++), ...data]));
  });
  out.push(...pngChunk("IEND", []));
  return new Uint8Array(out);
}

// ---------------------------------------------------------------------------------------------
// BMP.

export interface BmpOptions {
  /** 1, 4, 8 (palette), 16 (5-6-5 bit fields), 24, 32 (bit fields with alpha). */
  readonly bits: 1 | 4 | 8 | 16 | 24 | 32;
  readonly topDown?: boolean;
  /** 8-bit only: run-length encoded (BI_RLE8). */
  readonly rle8?: boolean;
  /** DIB header: 12 (OS/2 core), 40 (info), 124 (V5). */
  readonly header?: 12 | 40 | 124;
}

export function encodeBmp(width: number, height: number, paint: Paint, options: BmpOptions): Uint8Array {
  const le16 = (v: number) => [v & 255, (v >> 8) & 255];
  const le32 = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
  const headerSize = options.header ?? (options.bits === 32 || options.bits === 16 ? 124 : 40);
  const paletteSize = options.bits <= 8 ? 1 << options.bits : 0;
  // A palette of grey-ish colour steps: 6×6×6 cube for 8 bits, a few entries for 4 and 1.
  const palette = Array.from({ length: paletteSize }, (_, i) => {
    if (paletteSize === 256)
      return i < 216 ? [(i % 6) * 43, (Math.floor(i / 6) % 6) * 43, Math.floor(i / 36) * 43] : [i, i, i];
    if (paletteSize === 16) return [(i & 1) * 200 + 20, ((i >> 1) & 1) * 170 + 40, ((i >> 2) & 1) * 180 + 30];
    return i === 0 ? [20, 20, 60] : [200, 180, 40];
  });
  const nearest = (r: number, g: number, b: number) => {
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    palette.forEach(([pr = 0, pg = 0, pb = 0], i) => {
      const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    return best;
  };
  const rows: number[][] = [];
  for (let y = 0; y < height; y++) {
    const sourceY = options.topDown ? y : height - 1 - y;
    const indices: number[] = [];
    const row: number[] = [];
    for (let x = 0; x < width; x++) {
      const [r = 0, g = 0, b = 0, a = 255] = paint(x, sourceY);
      if (options.bits === 24) row.push(b, g, r);
      else if (options.bits === 32) row.push(b, g, r, a);
      else if (options.bits === 16) row.push(...le16(((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)));
      else indices.push(nearest(r, g, b));
    }
    if (options.bits <= 8 && !options.rle8) row.push(...packRow(indices, options.bits));
    if (options.rle8) {
      // Runs of at most 255, then end of line.
      for (let x = 0; x < indices.length; ) {
        let run = 1;
        while (x + run < indices.length && run < 255 && indices[x + run] === indices[x]) run++;
        row.push(run, indices[x] ?? 0);
        x += run;
      }
      row.push(0, y === height - 1 ? 1 : 0);
    } else while (row.length % 4 !== 0) row.push(0);
    rows.push(row);
  }
  const pixels = rows.flat();
  const paletteBytes = palette.flatMap(([r = 0, g = 0, b = 0]) =>
    headerSize === 12 ? [b, g, r] : [b, g, r, 0],
  );
  const masks =
    options.bits === 16 ? [0xf800, 0x07e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
  const compression = options.rle8 ? 1 : options.bits === 16 || options.bits === 32 ? 3 : 0;
  let dib: number[];
  if (headerSize === 12)
    dib = [...le32(12), ...le16(width), ...le16(height), ...le16(1), ...le16(options.bits)];
  else {
    dib = [
      ...le32(headerSize),
      ...le32(width),
      ...le32(options.topDown ? -height : height),
      ...le16(1),
      ...le16(options.bits),
      ...le32(compression),
      ...le32(pixels.length),
      ...le32(2835),
      ...le32(2835),
      ...le32(paletteSize),
      ...le32(0),
    ];
    if (headerSize === 124) {
      dib.push(...masks.flatMap(le32), ...ascii("BGRs").reverse(), ...new Array(36 + 12 + 16).fill(0));
    }
  }
  const offset = 14 + dib.length + paletteBytes.length;
  const file = [...ascii("BM"), ...le32(offset + pixels.length), 0, 0, 0, 0, ...le32(offset)];
  return new Uint8Array([...file, ...dib, ...paletteBytes, ...pixels]);
}

/** Raw interleaved pixels of `paint` (for sharp's raw input). */
export function rawPixels(width: number, height: number, paint: Paint, channels: 3 | 4): Buffer {
  const out = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = paint(x, y);
      for (let c = 0; c < channels; c++) out[(y * width + x) * channels + c] = p[c] ?? 255;
    }
  return out;
}
