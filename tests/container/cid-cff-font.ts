/**
 * A CID-keyed CFF font program built in code (Adobe Technical Note #5176: ROS, a charset naming
 * each glyph by its CID, FDSelect and FDArray), as a PDF's CIDFontType0C /FontFile3 holds it.
 * Glyph n draws a bar and the bits of n as squares, so every glyph looks different; CIDs are given
 * by the caller, so they need not equal the glyph ids.
 */

const ADVANCE = 600;
const SQUARE = 100;

/** A Type 2 charstring number. */
function number(value: number): number[] {
  if (value >= -107 && value <= 107) return [value + 139];
  if (value >= 108 && value <= 1131) return [247 + ((value - 108) >> 8), (value - 108) & 0xff];
  if (value >= -1131 && value <= -108) return [251 + ((-value - 108) >> 8), (-value - 108) & 0xff];
  return [28, (value >> 8) & 0xff, value & 0xff];
}

/** A DICT integer in the fixed five-byte form (offsets are written before they are known). */
const wide = (value: number) => [
  29,
  (value >>> 24) & 0xff,
  (value >> 16) & 0xff,
  (value >> 8) & 0xff,
  value & 0xff,
];

function index(items: readonly number[][]): number[] {
  if (items.length === 0) return [0, 0];
  const out = [items.length >> 8, items.length & 0xff, 4];
  let offset = 1;
  for (const item of [[], ...items]) {
    offset += item.length;
    out.push((offset >>> 24) & 0xff, (offset >> 16) & 0xff, (offset >> 8) & 0xff, offset & 0xff);
  }
  for (const item of items) out.push(...item);
  return out;
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Glyph `glyph`'s outline: a bar along the top, and a square for each set bit of its number. */
function charstring(glyph: number): number[] {
  const out = [...number(ADVANCE)];
  let [x, y] = [0, 0];
  const square = (left: number, bottom: number, width: number, height: number) => {
    out.push(...number(left - x), ...number(bottom - y), 21);
    out.push(...number(width), 6, ...number(height), 7, ...number(-width), 6);
    [x, y] = [left, bottom + height];
  };
  if (glyph > 0) {
    square(50, 560, 500, 60);
    for (let bit = 0; bit < 10; bit++)
      if ((glyph >> bit) & 1) square(50 + (bit % 5) * 100, 50 + Math.floor(bit / 5) * 250, SQUARE - 20, 200);
  }
  out.push(14);
  return out;
}

/** The font: glyph 0 (.notdef) and one glyph per CID of `cids` (ascending), in that order. */
export function cidCffFont(name: string, cids: readonly number[]): Uint8Array {
  const glyphs = cids.length + 1;
  const charset = [0];
  for (const cid of cids) charset.push(cid >> 8, cid & 0xff);
  const fdSelect = [3, 0, 1, 0, 0, 0, glyphs >> 8, glyphs & 0xff];
  const charStrings = index(Array.from({ length: glyphs }, (_, glyph) => charstring(glyph)));
  const privateDict = [139, 20, 139, 21];
  const top = (at: { charset: number; fdSelect: number; charStrings: number; fdArray: number }) => [
    ...[28, 1, 135, 28, 1, 136, 139, 12, 30], // ROS: "Adobe" (SID 391), "Identity" (392), 0
    ...[...wide(Math.max(...cids) + 1), 12, 34], // CIDCount
    ...[...wide(at.charset), 15],
    ...[...wide(at.fdSelect), 12, 37],
    ...[...wide(at.charStrings), 17],
    ...[...wide(at.fdArray), 12, 36],
  ];
  const head = [1, 0, 4, 4, ...index([ascii(name)])];
  const strings = index([ascii("Adobe"), ascii("Identity")]);
  const empty = { charset: 0, fdSelect: 0, charStrings: 0, fdArray: 0 };
  // Header, names, Top DICT, strings, no global subroutines; then the tables the Top DICT points at.
  const start = head.length + index([top(empty)]).length + strings.length + 2;
  const at = {
    charset: start,
    fdSelect: start + charset.length,
    charStrings: start + charset.length + fdSelect.length,
    fdArray: start + charset.length + fdSelect.length + charStrings.length,
  };
  const fdArray = (privateAt: number) => index([[...wide(privateDict.length), ...wide(privateAt), 18]]);
  const privateAt = at.fdArray + fdArray(0).length;
  return Uint8Array.from([
    ...head,
    ...index([top(at)]),
    ...strings,
    0,
    0,
    ...charset,
    ...fdSelect,
    ...charStrings,
    ...fdArray(privateAt),
    ...privateDict,
  ]);
}
