import { STANDARD_ENCODING, type Type1Program } from "./compress-type1.ts";

/**
 * Type 1 to bare CFF (Type1C), as Ghostscript embeds Type 1 fonts: Type 2 charstrings are about
 * half the size of Type 1's and, unencrypted, deflate (eexec-encrypted Type 1 bytes do not).
 * Each glyph's outline is run to absolute coordinates (subroutines, flex and seac resolved; the
 * accent of a seac glyph drawn into it) and written again as moves, lines and curves. Hints are
 * not carried over (MuPDF, like most viewers, draws Type 1 and CFF outlines unhinted). Glyph
 * numbering, names and the built-in encoding stay the same.
 */

/** One outline: its advance width and path, in absolute glyph-space coordinates. */
interface Outline {
  width: number;
  readonly path: { readonly op: "move" | "line" | "curve"; readonly points: number[] }[];
}

const MAX_DEPTH = 10;
const MAX_STEPS = 100_000;

/** Type 1 operators (escaped ones as 32 + the second byte). */
const OP = {
  hstem: 1,
  vstem: 3,
  vmoveto: 4,
  rlineto: 5,
  hlineto: 6,
  vlineto: 7,
  rrcurveto: 8,
  closepath: 9,
  callsubr: 10,
  return: 11,
  hsbw: 13,
  endchar: 14,
  rmoveto: 21,
  hmoveto: 22,
  vhcurveto: 30,
  hvcurveto: 31,
  dotsection: 32,
  vstem3: 33,
  hstem3: 34,
  seac: 38,
  sbw: 39,
  div: 44,
  callothersubr: 48,
  pop: 49,
  setcurrentpoint: 65,
} as const;

/** Runs one charstring (and what it calls) into `outline`; false when it cannot be followed. */
function runGlyph(
  program: Type1Program,
  byName: ReadonlyMap<string, Uint8Array>,
  charstring: Uint8Array,
  outline: Outline,
  offset: [number, number],
  seacDepth: number,
): boolean {
  const state = {
    x: 0,
    y: 0,
    stack: [] as number[],
    ps: [] as number[],
    flex: null as number[] | null,
    steps: 0,
  };
  const point = (dx: number, dy: number, op: "move" | "line") => {
    state.x += dx;
    state.y += dy;
    outline.path.push({ op, points: [state.x + offset[0], state.y + offset[1]] });
  };
  const curve = (d: readonly number[]) => {
    const points: number[] = [];
    for (let i = 0; i < 6; i += 2) {
      state.x += d[i] ?? 0;
      state.y += d[i + 1] ?? 0;
      points.push(state.x + offset[0], state.y + offset[1]);
    }
    outline.path.push({ op: "curve", points });
  };
  const run = (bytes: Uint8Array, depth: number): "return" | "end" | "fail" => {
    if (depth > MAX_DEPTH || ++state.steps > MAX_STEPS) return "fail";
    const s = state.stack;
    for (let i = 0; i < bytes.length; ) {
      const byte = bytes[i] ?? 0;
      if (byte >= 32) {
        if (byte <= 246) {
          s.push(byte - 139);
          i += 1;
        } else if (byte <= 250) {
          s.push((byte - 247) * 256 + (bytes[i + 1] ?? 0) + 108);
          i += 2;
        } else if (byte <= 254) {
          s.push(-(byte - 251) * 256 - (bytes[i + 1] ?? 0) - 108);
          i += 2;
        } else {
          if (i + 5 > bytes.length) return "fail";
          s.push(new DataView(bytes.buffer, bytes.byteOffset + i + 1, 4).getInt32(0));
          i += 5;
        }
        continue;
      }
      const op = byte === 12 ? 32 + (bytes[i + 1] ?? 0) : byte;
      i += byte === 12 ? 2 : 1;
      const args = (count: number) => (s.length < count ? null : s.splice(s.length - count, count));
      switch (op) {
        case OP.hsbw: {
          const a = args(2);
          if (a === null) return "fail";
          [state.x, state.y] = [a[0] ?? 0, 0];
          if (seacDepth === 0) outline.width = a[1] ?? 0;
          s.length = 0;
          break;
        }
        case OP.sbw: {
          const a = args(4);
          if (a === null) return "fail";
          [state.x, state.y] = [a[0] ?? 0, a[1] ?? 0];
          if (seacDepth === 0) outline.width = a[2] ?? 0;
          s.length = 0;
          break;
        }
        case OP.rmoveto:
        case OP.hmoveto:
        case OP.vmoveto: {
          const a = args(op === OP.rmoveto ? 2 : 1);
          if (a === null) return "fail";
          const [dx, dy] = op === OP.rmoveto ? a : op === OP.hmoveto ? [a[0], 0] : [0, a[0]];
          if (state.flex !== null) {
            state.x += dx ?? 0;
            state.y += dy ?? 0;
          } else point(dx ?? 0, dy ?? 0, "move");
          s.length = 0;
          break;
        }
        case OP.rlineto:
        case OP.hlineto:
        case OP.vlineto: {
          const a = args(op === OP.rlineto ? 2 : 1);
          if (a === null) return "fail";
          const [dx, dy] = op === OP.rlineto ? a : op === OP.hlineto ? [a[0], 0] : [0, a[0]];
          point(dx ?? 0, dy ?? 0, "line");
          s.length = 0;
          break;
        }
        case OP.rrcurveto:
        case OP.vhcurveto:
        case OP.hvcurveto: {
          const a = args(op === OP.rrcurveto ? 6 : 4);
          if (a === null) return "fail";
          const [p, q, r, t] = [a[0] ?? 0, a[1] ?? 0, a[2] ?? 0, a[3] ?? 0];
          curve(op === OP.rrcurveto ? a : op === OP.vhcurveto ? [0, p, q, r, t, 0] : [p, 0, q, r, 0, t]);
          s.length = 0;
          break;
        }
        case OP.callsubr: {
          const index = s.pop();
          const subr = index === undefined ? undefined : program.subrs.get(index);
          if (subr === undefined) return "fail";
          const result = run(subr, depth + 1);
          if (result !== "return") return result;
          break;
        }
        case OP.return:
          return "return";
        case OP.endchar:
          return "end";
        case OP.seac: {
          const a = args(5);
          if (a === null || seacDepth > 0) return "fail";
          const [asb, adx, ady, bchar, achar] = a as [number, number, number, number, number];
          const base = byName.get(STANDARD_ENCODING[bchar] ?? "");
          const accent = byName.get(STANDARD_ENCODING[achar] ?? "");
          if (base === undefined || accent === undefined) return "fail";
          if (!runGlyph(program, byName, base, outline, offset, seacDepth + 1)) return "fail";
          const shifted: [number, number] = [offset[0] + adx - asb, offset[1] + ady];
          return runGlyph(program, byName, accent, outline, shifted, seacDepth + 1) ? "end" : "fail";
        }
        case OP.div: {
          const a = args(2);
          if (a === null || a[1] === 0) return "fail";
          s.push((a[0] ?? 0) / (a[1] ?? 1));
          break;
        }
        case OP.callothersubr: {
          const other = s.pop();
          const count = s.pop() ?? 0;
          const a = args(count);
          if (a === null || other === undefined) return "fail";
          if (other === 1) state.flex = [];
          else if (other === 2) state.flex?.push(state.x, state.y);
          else if (other === 0) {
            const flex = state.flex;
            // The reference point, then the two curves' six points; the PostScript stack gets the end point.
            if (flex === null || flex.length !== 14) return "fail";
            state.flex = null;
            for (const from of [2, 8]) {
              outline.path.push({
                op: "curve",
                points: flex.slice(from, from + 6).map((value, index) => value + (offset[index % 2] ?? 0)),
              });
            }
            [state.x, state.y] = [flex[12] ?? 0, flex[13] ?? 0];
            state.ps.push(state.y, state.x);
          } else if (other === 3 || other === 12 || other === 13) state.ps.push(...a.reverse());
          else return "fail";
          break;
        }
        case OP.pop:
          s.push(state.ps.pop() ?? 0);
          break;
        case OP.setcurrentpoint: {
          const a = args(2);
          if (a === null) return "fail";
          [state.x, state.y] = [a[0] ?? 0, a[1] ?? 0];
          break;
        }
        case OP.hstem:
        case OP.vstem:
        case OP.dotsection:
        case OP.vstem3:
        case OP.hstem3:
        case OP.closepath:
          s.length = 0;
          break;
        default:
          return "fail";
      }
    }
    return "return";
  };
  return run(charstring, 0) !== "fail";
}

/** A Type 2 charstring number: integers in their short forms, others as 16.16 fixed. */
function type2Number(value: number, out: number[]): void {
  if (Number.isInteger(value) && value >= -107 && value <= 107) out.push(value + 139);
  else if (Number.isInteger(value) && value >= 108 && value <= 1131)
    out.push(((value - 108) >> 8) + 247, (value - 108) & 0xff);
  else if (Number.isInteger(value) && value >= -1131 && value <= -108)
    out.push(((-value - 108) >> 8) + 251, (-value - 108) & 0xff);
  else if (Number.isInteger(value) && value >= -32768 && value <= 32767)
    out.push(28, (value >> 8) & 0xff, value & 0xff);
  else {
    const fixed = Math.round(value * 65536) | 0;
    out.push(255, (fixed >>> 24) & 0xff, (fixed >>> 16) & 0xff, (fixed >>> 8) & 0xff, fixed & 0xff);
  }
}

/** The outline as a Type 2 charstring (width first, relative moves, lines and curves, endchar). */
function type2Charstring(outline: Outline): Uint8Array {
  const out: number[] = [];
  if (outline.width !== 0) type2Number(outline.width, out);
  let [x, y] = [0, 0];
  const relative = (points: readonly number[]) => {
    for (let i = 0; i < points.length; i += 2) {
      // Deltas from where the previous numbers (as encoded) left the point: no drift.
      const [dx, dy] = [
        Math.round(((points[i] ?? 0) - x) * 65536) / 65536,
        Math.round(((points[i + 1] ?? 0) - y) * 65536) / 65536,
      ];
      type2Number(dx, out);
      type2Number(dy, out);
      x += dx;
      y += dy;
    }
  };
  for (const segment of outline.path) {
    relative(segment.points);
    out.push(segment.op === "move" ? 21 : segment.op === "line" ? 5 : 8);
  }
  out.push(14);
  return Uint8Array.from(out);
}

/** A CFF DICT number (integers as 5-byte int32 when `wide`, else shortest; others as reals). */
function dictNumber(value: number, out: number[], wide = false): void {
  if (wide || (Number.isInteger(value) && (value < -1131 || value > 1131))) {
    out.push(29, (value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
  } else if (Number.isInteger(value)) {
    if (value >= -107 && value <= 107) out.push(value + 139);
    else if (value >= 108) out.push(((value - 108) >> 8) + 247, (value - 108) & 0xff);
    else out.push(((-value - 108) >> 8) + 251, (-value - 108) & 0xff);
  } else {
    const nibbles = [...String(Number(value.toPrecision(10)))].map((char) =>
      char === "." ? 0xa : char === "-" ? 0xe : char === "e" ? 0xb : Number(char),
    );
    nibbles.push(0xf);
    if (nibbles.length % 2 === 1) nibbles.push(0xf);
    out.push(30);
    for (let i = 0; i < nibbles.length; i += 2) out.push(((nibbles[i] ?? 0) << 4) | (nibbles[i + 1] ?? 0));
  }
}

function cffIndexBytes(items: readonly Uint8Array[]): number[] {
  if (items.length === 0) return [0, 0];
  const out = [(items.length >> 8) & 0xff, items.length & 0xff, 4];
  let offset = 1;
  const offsets = [offset];
  for (const item of items) {
    offset += item.length;
    offsets.push(offset);
  }
  for (const value of offsets)
    out.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
  for (const item of items) for (const byte of item) out.push(byte);
  return out;
}

const ascii = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0) & 0xff));

/** Numbers of a `/Key [..]` or `/Key {..}` array in the clear text, or null. */
function clearArray(clearText: string, key: string): number[] | null {
  const match = new RegExp(`/${key}\\s*[[{]([^\\]}]*)[\\]}]`).exec(clearText);
  const values = match?.[1]?.trim().split(/\s+/).map(Number);
  return values?.every(Number.isFinite) ? values : null;
}

/** The program's built-in encoding (code → glyph name). */
function builtInEncoding(clearText: string): Map<number, string> {
  if (/\/Encoding\s+StandardEncoding\s+def/.test(clearText))
    return new Map(Object.entries(STANDARD_ENCODING).map(([code, name]) => [Number(code), name]));
  const encoding = new Map<number, string>();
  for (const match of clearText.matchAll(/dup\s+(\d+)\s*\/([^\s/[\]{}()<>]+)\s+put/g))
    encoding.set(Number(match[1]), match[2] ?? "");
  return encoding;
}

/** The program as a bare CFF font (FontFile3 /Type1C), or null when it cannot be converted. */
export function type1ToCff(program: Type1Program): Uint8Array | null {
  const fontName = /\/FontName\s*\/([^\s/[\]{}()<>]+)/.exec(program.clearText)?.[1];
  const matrix = clearArray(program.clearText, "FontMatrix");
  const bbox = clearArray(program.clearText, "FontBBox");
  if (fontName === undefined || bbox?.length !== 4) return null;
  const byName = new Map(program.glyphs.map((glyph) => [glyph.name, glyph.charstring]));
  const charstrings: Uint8Array[] = [];
  for (const glyph of program.glyphs) {
    const outline: Outline = { width: 0, path: [] };
    if (!runGlyph(program, byName, glyph.charstring, outline, [0, 0], 0)) return null;
    charstrings.push(type2Charstring(outline));
  }
  // Every glyph name but .notdef as a string of its own (SID 391 on): charset and encoding name them.
  const names = program.glyphs.slice(1).map((glyph) => glyph.name);
  const sid = new Map(names.map((name, index) => [name, 391 + index]));
  const supplements = [...builtInEncoding(program.clearText)].filter(([, name]) => sid.has(name));
  if (supplements.length > 255) return null;
  const charset = [0];
  for (const name of names) charset.push(((sid.get(name) ?? 0) >> 8) & 0xff, (sid.get(name) ?? 0) & 0xff);
  const encoding = [0x80, 0, supplements.length];
  for (const [code, name] of supplements)
    encoding.push(code, ((sid.get(name) ?? 0) >> 8) & 0xff, (sid.get(name) ?? 0) & 0xff);
  const privateDict = [139, 21]; // nominalWidthX 0
  const top = (at: { charset: number; encoding: number; charStrings: number; private: number }) => {
    const out: number[] = [];
    for (const value of bbox) dictNumber(Math.round(value), out);
    out.push(5);
    const standard = [0.001, 0, 0, 0.001, 0, 0];
    if (
      matrix?.length === 6 &&
      matrix.some((value, index) => Math.abs(value - (standard[index] ?? 0)) > 1e-9)
    ) {
      for (const value of matrix) dictNumber(value, out);
      out.push(12, 7);
    }
    dictNumber(at.charset, out, true);
    out.push(15);
    dictNumber(at.encoding, out, true);
    out.push(16);
    dictNumber(at.charStrings, out, true);
    out.push(17);
    dictNumber(privateDict.length, out, true);
    dictNumber(at.private, out, true);
    out.push(18);
    return Uint8Array.from(out);
  };
  const head = [1, 0, 4, 4, ...cffIndexBytes([ascii(fontName)])];
  const strings = cffIndexBytes(names.map(ascii));
  const globalSubrs = [0, 0];
  const topLength = cffIndexBytes([top({ charset: 0, encoding: 0, charStrings: 0, private: 0 })]).length;
  const charsetAt = head.length + topLength + strings.length + globalSubrs.length;
  const encodingAt = charsetAt + charset.length;
  const charStringsAt = encodingAt + encoding.length;
  const charStringsIndex = cffIndexBytes(charstrings);
  const privateAt = charStringsAt + charStringsIndex.length;
  const topIndex = cffIndexBytes([
    top({ charset: charsetAt, encoding: encodingAt, charStrings: charStringsAt, private: privateAt }),
  ]);
  return Uint8Array.from([
    ...head,
    ...topIndex,
    ...strings,
    ...globalSubrs,
    ...charset,
    ...encoding,
    ...charStringsIndex,
    ...privateDict,
  ]);
}
