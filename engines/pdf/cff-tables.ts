/** Readers of a bare CFF program's structures (Adobe Technical Note #5176). */

/** Top DICT operators: CharStrings INDEX offset, charset offset, ROS (escaped: 1200 + byte). */
const CHARSTRINGS = 17;
const CHARSET = 15;
const ROS = 1230;
/** Predefined charsets (ISOAdobe, Expert, ExpertSubset) are written as these offsets. */
const LAST_PREDEFINED_CHARSET = 2;

/** A CFF INDEX at `at`: its items (start and end offsets) and where it ends. */
export function cffIndex(view: DataView, at: number): { items: [number, number][]; end: number } {
  const count = view.getUint16(at);
  if (count === 0) return { items: [], end: at + 2 };
  const offSize = view.getUint8(at + 2);
  const offset = (i: number) => {
    let value = 0;
    for (let b = 0; b < offSize; b++) value = value * 256 + view.getUint8(at + 3 + i * offSize + b);
    return value;
  };
  const base = at + 2 + (count + 1) * offSize;
  const items = Array.from({ length: count }, (_, i): [number, number] => [
    base + offset(i),
    base + offset(i + 1),
  ]);
  return { items, end: base + offset(count) };
}

const viewOf = (font: Uint8Array) => new DataView(font.buffer, font.byteOffset, font.byteLength);

/** The first font's name (Name INDEX), or "". */
export function cffName(font: Uint8Array): string {
  try {
    const view = viewOf(font);
    const [name] = cffIndex(view, view.getUint8(2)).items;
    return name === undefined ? "" : String.fromCharCode(...font.subarray(name[0], name[1]));
  } catch {
    return "";
  }
}

/**
 * The first font's Top DICT: operands by operator (an escaped operator 12 x as 1200 + x; a real
 * number's operand reads as 0), or null when it does not read.
 */
export function cffTopDict(font: Uint8Array): Map<number, number[]> | null {
  try {
    const view = viewOf(font);
    const names = cffIndex(view, view.getUint8(2));
    const [top] = cffIndex(view, names.end).items;
    if (top === undefined) return null;
    const dict = new Map<number, number[]>();
    let operands: number[] = [];
    for (let at = top[0]; at < top[1]; ) {
      const byte = view.getUint8(at);
      if (byte === 28) {
        operands.push(view.getInt16(at + 1));
        at += 3;
      } else if (byte === 29) {
        operands.push(view.getInt32(at + 1));
        at += 5;
      } else if (byte === 30) {
        // A real number: its nibbles end with 0xf.
        operands.push(0);
        at++;
        while (at < top[1] && (view.getUint8(at) & 0x0f) !== 0x0f && (view.getUint8(at) & 0xf0) !== 0xf0)
          at++;
        at++;
      } else if (byte >= 32 && byte <= 246) {
        operands.push(byte - 139);
        at++;
      } else if (byte >= 247 && byte <= 250) {
        operands.push((byte - 247) * 256 + view.getUint8(at + 1) + 108);
        at += 2;
      } else if (byte >= 251 && byte <= 254) {
        operands.push(-(byte - 251) * 256 - view.getUint8(at + 1) - 108);
        at += 2;
      } else {
        dict.set(byte === 12 ? 1200 + view.getUint8(at + 1) : byte, operands);
        at += byte === 12 ? 2 : 1;
        operands = [];
      }
    }
    return dict;
  } catch {
    return null;
  }
}

/** The number of glyphs of a bare CFF program (its CharStrings INDEX's count), or null. */
export function cffGlyphCount(font: Uint8Array): number | null {
  const offset = cffTopDict(font)?.get(CHARSTRINGS)?.at(-1);
  if (offset === undefined) return null;
  try {
    return cffIndex(viewOf(font), offset).items.length;
  } catch {
    return null;
  }
}

/**
 * The CID of each glyph id of a CID-keyed CFF program (its charset, which names glyphs by CID),
 * or null when the program is not CID-keyed or its charset does not read.
 */
export function cidsByGlyph(font: Uint8Array): number[] | null {
  const dict = cffTopDict(font);
  const offset = dict?.get(CHARSET)?.at(-1);
  const count = cffGlyphCount(font);
  if (!dict?.has(ROS) || offset === undefined || offset <= LAST_PREDEFINED_CHARSET || count === null)
    return null;
  try {
    const view = viewOf(font);
    const cids = [0];
    const format = view.getUint8(offset);
    let at = offset + 1;
    while (cids.length < count) {
      if (format === 0) {
        cids.push(view.getUint16(at));
        at += 2;
        continue;
      }
      if (format !== 1 && format !== 2) return null;
      const first = view.getUint16(at);
      const left = format === 1 ? view.getUint8(at + 2) : view.getUint16(at + 2);
      at += format === 1 ? 3 : 4;
      for (let i = 0; i <= left && cids.length < count; i++) cids.push(first + i);
    }
    return cids;
  } catch {
    return null;
  }
}
