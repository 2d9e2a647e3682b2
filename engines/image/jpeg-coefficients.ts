/**
 * Which quantised DCT coefficients of a progressive JPEG are ever non-zero, read from its Huffman-
 * coded scans (ITU T.81 G.1.2) without dequantising or transforming anything: a few milliseconds
 * and a 64-bit mask per block, where decoding the image would take its full pixel buffer. The
 * answer is per component and per zig-zag position (the order of the quantisation table and of a
 * scan's spectral band). DC scans are skipped: the DC coefficient counts as used.
 *
 * Only what the edge's MozJPEG writes is walked: one progressive Huffman frame, no restart
 * intervals. Anything else (baseline, arithmetic coding, restarts, a malformed or truncated scan)
 * gives undefined, and the caller keeps the file as it is.
 */

import {
  DHT,
  DQT,
  DRI,
  EOI,
  entropyCodedEnd,
  quantTables,
  SOF_PROGRESSIVE,
  SOI,
  SOS,
} from "./jpeg-markers.ts";

export interface ComponentCoefficients {
  /** The component's quantisation table (Tq of the frame header). */
  readonly table: number;
  /** 1 where some block has a non-zero coefficient at that zig-zag position (DC always 1). */
  readonly used: Uint8Array;
}

export interface JpegCoefficients {
  /** The quantisation tables defined before the first scan, by id, in zig-zag order. */
  readonly tables: ReadonlyMap<number, Uint16Array>;
  readonly components: readonly ComponentCoefficients[];
}

class Unsupported extends Error {}

/** A canonical Huffman table (T.81 C.2) decoded bit by bit. */
class Huffman {
  readonly #maxCode = new Int32Array(17).fill(-1);
  readonly #offset = new Int32Array(17);
  readonly #values: Uint8Array;

  constructor(counts: Uint8Array, values: Uint8Array) {
    this.#values = values;
    let code = 0;
    let index = 0;
    for (let length = 1; length <= 16; length++) {
      const count = counts[length - 1] ?? 0;
      this.#offset[length] = index - code;
      code += count;
      index += count;
      if (count > 0) this.#maxCode[length] = code - 1;
      code <<= 1;
    }
  }

  decode(bits: BitReader): number {
    let code = 0;
    for (let length = 1; length <= 16; length++) {
      code = (code << 1) | bits.bit();
      if (code <= (this.#maxCode[length] ?? -1)) {
        const value = this.#values[code + (this.#offset[length] ?? 0)];
        if (value === undefined) throw new Unsupported();
        return value;
      }
    }
    throw new Unsupported();
  }
}

/** The bits of one scan's entropy-coded segment, stuffed zero bytes removed. */
class BitReader {
  readonly #data: Uint8Array;
  readonly #end: number;
  #at: number;
  #byte = 0;
  #left = 0;

  constructor(data: Uint8Array, start: number, end: number) {
    this.#data = data;
    this.#at = start;
    this.#end = end;
  }

  bit(): number {
    if (this.#left === 0) {
      if (this.#at >= this.#end) throw new Unsupported();
      this.#byte = this.#data[this.#at++] ?? 0;
      if (this.#byte === 0xff) {
        // A stuffed 0x00 follows; anything else is a restart marker (or fill), not taken here.
        if (this.#data[this.#at] !== 0x00) throw new Unsupported();
        this.#at++;
      }
      this.#left = 8;
    }
    this.#left--;
    return (this.#byte >> this.#left) & 1;
  }

  bits(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) value = (value << 1) | this.bit();
    return value;
  }
}

interface Component {
  readonly id: number;
  readonly table: number;
  readonly blocksWide: number;
  readonly blocksHigh: number;
  /** Per block, two words: bit k of word k >> 5 set when coefficient k is non-zero so far. */
  readonly nonZero: Uint32Array;
  readonly used: Uint8Array;
}

function isNonZero(component: Component, block: number, k: number): boolean {
  return ((component.nonZero[block * 2 + (k >> 5)] ?? 0) & (1 << (k & 31))) !== 0;
}

function markNonZero(component: Component, block: number, k: number): void {
  const word = block * 2 + (k >> 5);
  component.nonZero[word] = (component.nonZero[word] ?? 0) | (1 << (k & 31));
  component.used[k] = 1;
}

/** First scan of a spectral band (T.81 G.1.2.2): which coefficients become non-zero. */
function firstAcScan(component: Component, bits: BitReader, ac: Huffman, start: number, end: number): void {
  let eobRun = 0;
  const blocks = component.blocksWide * component.blocksHigh;
  for (let block = 0; block < blocks; block++) {
    if (eobRun > 0) {
      eobRun--;
      continue;
    }
    for (let k = start; k <= end; k++) {
      const symbol = ac.decode(bits);
      const run = symbol >> 4;
      const size = symbol & 15;
      if (size > 0) {
        k += run;
        if (k > end) throw new Unsupported();
        bits.bits(size);
        markNonZero(component, block, k);
      } else if (run === 15) {
        k += 15;
      } else {
        eobRun = (1 << run) - 1 + (run > 0 ? bits.bits(run) : 0);
        break;
      }
    }
  }
}

/**
 * A refinement scan (T.81 G.1.2.3): correction bits for coefficients already non-zero, and new
 * coefficients of magnitude one at zero positions, reached by counting zero-history positions only.
 */
function refineAcScan(component: Component, bits: BitReader, ac: Huffman, start: number, end: number): void {
  let eobRun = 0;
  const blocks = component.blocksWide * component.blocksHigh;
  for (let block = 0; block < blocks; block++) {
    let k = start;
    if (eobRun === 0) {
      for (; k <= end; k++) {
        const symbol = ac.decode(bits);
        let run = symbol >> 4;
        const size = symbol & 15;
        if (size > 0) {
          if (size !== 1) throw new Unsupported();
          bits.bit(); // the new coefficient's sign
        } else if (run !== 15) {
          eobRun = (1 << run) + (run > 0 ? bits.bits(run) : 0);
          break;
        }
        // Pass `run` zero-history positions; each non-zero one on the way takes a correction bit.
        for (; k <= end; k++) {
          if (isNonZero(component, block, k)) bits.bit();
          else if (--run < 0) break;
        }
        if (size > 0) {
          if (k > end) throw new Unsupported();
          markNonZero(component, block, k);
        }
      }
    }
    if (eobRun > 0) {
      for (; k <= end; k++) if (isNonZero(component, block, k)) bits.bit();
      eobRun--;
    }
  }
}

function frameComponents(data: Uint8Array): Component[] {
  if (data.length < 6 || data[0] !== 8) throw new Unsupported();
  const height = ((data[1] ?? 0) << 8) | (data[2] ?? 0);
  const width = ((data[3] ?? 0) << 8) | (data[4] ?? 0);
  const count = data[5] ?? 0;
  if (width === 0 || height === 0 || count === 0 || data.length < 6 + 3 * count) throw new Unsupported();
  const specs = Array.from({ length: count }, (_, i) => ({
    id: data[6 + 3 * i] ?? 0,
    h: (data[7 + 3 * i] ?? 0) >> 4,
    v: (data[7 + 3 * i] ?? 0) & 15,
    table: data[8 + 3 * i] ?? 0,
  }));
  const hMax = Math.max(...specs.map((spec) => spec.h));
  const vMax = Math.max(...specs.map((spec) => spec.v));
  return specs.map(({ id, h, v, table }) => {
    if (h < 1 || v < 1) throw new Unsupported();
    // A component's own size (T.81 A.1.1); a one-component scan covers exactly its blocks.
    const blocksWide = Math.ceil(Math.ceil((width * h) / hMax) / 8);
    const blocksHigh = Math.ceil(Math.ceil((height * v) / vMax) / 8);
    const used = new Uint8Array(64);
    used[0] = 1;
    return { id, table, blocksWide, blocksHigh, nonZero: new Uint32Array(blocksWide * blocksHigh * 2), used };
  });
}

function readHuffman(data: Uint8Array, into: Map<number, Huffman>): void {
  for (let at = 0; at < data.length; ) {
    const key = data[at] ?? 0; // class << 4 | id
    const counts = data.subarray(at + 1, at + 17);
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (counts.length < 16 || at + 17 + total > data.length) throw new Unsupported();
    into.set(key, new Huffman(counts, data.subarray(at + 17, at + 17 + total)));
    at += 17 + total;
  }
}

function walk(bytes: Uint8Array): JpegCoefficients {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) throw new Unsupported();
  const tables = new Map<number, Uint16Array>();
  const huffman = new Map<number, Huffman>();
  let components: Component[] | undefined;
  let at = 2;
  for (;;) {
    if (bytes[at] !== 0xff) throw new Unsupported();
    while (bytes[at] === 0xff) at++;
    const marker = bytes[at++] ?? 0;
    if (marker === EOI) break;
    if (at + 2 > bytes.length) throw new Unsupported();
    const length = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
    if (length < 2 || at + length > bytes.length) throw new Unsupported();
    const data = bytes.subarray(at + 2, at + length);
    at += length;
    if (marker === DQT) {
      if (components !== undefined) throw new Unsupported(); // tables changed between scans
      const defined = quantTables(data);
      if (defined === null) throw new Unsupported();
      for (const { id, values } of defined) tables.set(id, values);
    } else if (marker === DHT) readHuffman(data, huffman);
    else if (marker === DRI) {
      if ((data[0] ?? 0) !== 0 || (data[1] ?? 0) !== 0) throw new Unsupported();
    } else if (marker >= 0xc0 && marker <= 0xcf && marker !== DHT && marker !== 0xc8 && marker !== 0xcc) {
      if (marker !== SOF_PROGRESSIVE || components !== undefined) throw new Unsupported();
      components = frameComponents(data);
    } else if (marker === SOS) {
      if (components === undefined) throw new Unsupported();
      const end = entropyCodedEnd(bytes, at);
      if (end < 0) throw new Unsupported();
      const count = data[0] ?? 0;
      const [startK, endK, approximation] = [data[1 + 2 * count], data[2 + 2 * count], data[3 + 2 * count]];
      if (startK === undefined || endK === undefined || approximation === undefined) throw new Unsupported();
      if (startK > 0) {
        const component = components.find((c) => c.id === data[1]);
        const ac = huffman.get(0x10 | ((data[2] ?? 0) & 15));
        if (count !== 1 || component === undefined || ac === undefined || endK > 63 || startK > endK)
          throw new Unsupported();
        const bits = new BitReader(bytes, at, end);
        if (approximation >> 4 === 0) firstAcScan(component, bits, ac, startK, endK);
        else refineAcScan(component, bits, ac, startK, endK);
      }
      at = end;
    }
  }
  if (components === undefined) throw new Unsupported();
  return { tables, components: components.map(({ table, used }) => ({ table, used })) };
}

/** The coefficients a progressive JPEG uses; undefined for any file this reader does not take. */
export function jpegCoefficients(bytes: Uint8Array): JpegCoefficients | undefined {
  try {
    return walk(bytes);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}
