import * as mupdf from "mupdf";
import { type DrawnGlyphs, fontFiles, glyphsOf } from "./drawn-glyphs.ts";

/** eexec and charstring encryption (Adobe Type 1 Font Format, chapter 7). */
const EEXEC_KEY = 55665;
const CHARSTRING_KEY = 4330;
const C1 = 52845;
const C2 = 22719;
/** Charstring operators: callsubr, return, and the escape byte before seac (12 6). */
const CALLSUBR = 10;
const RETURN = 11;
const ESCAPE = 12;
const SEAC = 6;
const DIV = 12;
const CALLOTHERSUBR = 16;
const POP = 17;
/** Subrs 0–3 belong to the flex and hint-replacement machinery: always kept. */
const RESERVED_SUBRS = 4;
const DIGIT_NAMES = "zero one two three four five six seven eight nine".split(" ");
/** Glyph names whose Unicode value FreeType derives the same way in every font: the mapping check. */
const CHECKED_NAMES = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", ...DIGIT_NAMES];
/**
 * Adobe StandardEncoding: the codes seac (an accented glyph built from a base letter and an
 * accent) names, and the built-in encoding of many Type 1 programs.
 */
export const STANDARD_ENCODING: Record<number, string> = {
  ...Object.fromEntries(
    [
      "space exclam quotedbl numbersign dollar percent ampersand quoteright parenleft parenright",
      "asterisk plus comma hyphen period slash",
      DIGIT_NAMES.join(" "),
      "colon semicolon less equal greater question at",
      [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].join(" "),
      "bracketleft backslash bracketright asciicircum underscore quoteleft",
      [..."abcdefghijklmnopqrstuvwxyz"].join(" "),
      "braceleft bar braceright asciitilde",
    ]
      .join(" ")
      .split(" ")
      .map((name, index) => [32 + index, name]),
  ),
  161: "exclamdown",
  162: "cent",
  163: "sterling",
  164: "fraction",
  165: "yen",
  166: "florin",
  167: "section",
  168: "currency",
  169: "quotesingle",
  170: "quotedblleft",
  171: "guillemotleft",
  172: "guilsinglleft",
  173: "guilsinglright",
  174: "fi",
  175: "fl",
  177: "endash",
  178: "dagger",
  179: "daggerdbl",
  180: "periodcentered",
  182: "paragraph",
  183: "bullet",
  184: "quotesinglbase",
  185: "quotedblbase",
  186: "quotedblright",
  187: "guillemotright",
  188: "ellipsis",
  189: "perthousand",
  191: "questiondown",
  193: "grave",
  194: "acute",
  195: "circumflex",
  196: "tilde",
  197: "macron",
  198: "breve",
  199: "dotaccent",
  200: "dieresis",
  202: "ring",
  203: "cedilla",
  205: "hungarumlaut",
  206: "ogonek",
  207: "caron",
  208: "emdash",
  225: "AE",
  227: "ordfeminine",
  232: "Lslash",
  233: "Oslash",
  234: "OE",
  235: "ordmasculine",
  241: "ae",
  245: "dotlessi",
  248: "lslash",
  249: "oslash",
  250: "oe",
  251: "germandbls",
};

/**
 * Subsets embedded Type 1 fonts (/FontFile), which MuPDF's subsetter leaves whole: a LaTeX or
 * InDesign file often embeds an 848-glyph font of 130 KB to draw eight letters. The glyphs drawn
 * are those a run of every page shows with the font (drawn-glyphs.ts); the font's charstrings are
 * cut to those (with .notdef and the base and accent of accented glyphs), and the subroutines no
 * kept charstring calls are emptied. A font is left whole when anything could draw it outside
 * that run (see `DrawnGlyphs`) or when its glyph numbering cannot be checked against the one MuPDF
 * draws with. Returns how many Type 1 fonts were cut.
 */
export function subsetType1Fonts(pdf: mupdf.PDFDocument, drawn: DrawnGlyphs): number {
  let subset = 0;
  for (const [num, names] of fontFiles(pdf, "FontFile")) {
    if (drawn.untouchable.has(num)) continue;
    const glyphs = glyphsOf(names, drawn.used);
    if (glyphs === null) continue;
    try {
      const stream = pdf.newIndirect(num);
      const font = stream.readStream().asUint8Array();
      const cut = subsetProgram(font, stream, glyphs);
      if (cut === null || cut.bytes.length >= font.length) continue;
      stream.writeStream(cut.bytes);
      stream.put("Length1", cut.lengths[0]);
      stream.put("Length2", cut.lengths[1]);
      stream.put("Length3", cut.lengths[2]);
      subset++;
    } catch {
      // A font program that does not read as Type 1 is left as it is.
    }
  }
  return subset;
}

/** eexec or charstring decryption. */
function decrypt(data: Uint8Array, key: number): Uint8Array {
  const out = new Uint8Array(data.length);
  let r = key;
  for (let i = 0; i < data.length; i++) {
    const cipher = data[i] ?? 0;
    out[i] = cipher ^ (r >> 8);
    r = ((cipher + r) * C1 + C2) & 0xffff;
  }
  return out;
}

function encrypt(data: Uint8Array, key: number): Uint8Array {
  const out = new Uint8Array(data.length);
  let r = key;
  for (let i = 0; i < data.length; i++) {
    const cipher = (data[i] ?? 0) ^ (r >> 8);
    out[i] = cipher;
    r = ((cipher + r) * C1 + C2) & 0xffff;
  }
  return out;
}

/** Bytes as text one character each, and back (TextDecoder's "latin1" is windows-1252: not 1:1). */
const latin1 = { decode: (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1") };
const fromLatin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

/** One charstring or subroutine entry of the private dictionary: where it sits and its data. */
interface Entry {
  readonly key: string;
  readonly start: number;
  /** Where the encrypted data starts and ends. */
  readonly dataStart: number;
  readonly dataEnd: number;
  readonly end: number;
}

/**
 * The decrypted private part of a binary (PFB-style) Type 1 program, and how to decrypt one of its
 * charstrings or subroutines; null when the lengths do not fit or the part is hex (PFA: not handled).
 */
function decryptPrivatePart(
  font: Uint8Array,
  clearLength: number,
  privateLength: number,
): { text: string; lenIV: number; decode: (entry: Entry) => Uint8Array } | null {
  if (!(clearLength > 0 && privateLength > 4 && clearLength + privateLength <= font.length)) return null;
  const binary = font.subarray(clearLength, clearLength + privateLength);
  // A hex (PFA) private part starts with four hex digits.
  if (/^[0-9A-Fa-f]{4}$/.test(latin1.decode(binary.subarray(0, 4)))) return null;
  const text = latin1.decode(decrypt(binary, EEXEC_KEY));
  const lenIVMatch = /\/lenIV\s+(-?\d+)/.exec(text);
  const lenIV = lenIVMatch ? Number(lenIVMatch[1]) : 4;
  const decode = (entry: Entry) => {
    const data = fromLatin1(text.slice(entry.dataStart, entry.dataEnd));
    return lenIV < 0 ? data : decrypt(data, CHARSTRING_KEY).subarray(lenIV);
  };
  return { text, lenIV, decode };
}

/**
 * Reads the entries of the private dictionary from `from`: charstrings (`/name len RD <data> ND`)
 * or subroutines (`dup index len RD <data> NP`), until the first text that is neither.
 */
function readEntries(text: string, from: number, subroutines: boolean): { entries: Entry[]; end: number } {
  const head = subroutines ? /\s*dup\s+(\d+)\s+(\d+)\s+\S+ /y : /\s*\/([^\s/[\]{}()<>]+)\s+(\d+)\s+\S+ /y;
  const tail = subroutines ? /\s*(noaccess\s+put|\S+)/y : /\s*(noaccess\s+def|\S+)/y;
  const entries: Entry[] = [];
  let at = from;
  for (;;) {
    head.lastIndex = at;
    const match = head.exec(text);
    if (match === null) break;
    const dataStart = head.lastIndex;
    const dataEnd = dataStart + Number(match[2]);
    tail.lastIndex = dataEnd;
    if (dataEnd > text.length || tail.exec(text) === null) break;
    entries.push({ key: match[1] ?? "", start: at, dataStart, dataEnd, end: tail.lastIndex });
    at = tail.lastIndex;
  }
  return { entries, end: at };
}

/** A number on the operand stack: its value and, when written as such, the entry and bytes holding it. */
interface Operand {
  readonly value: number;
  readonly owner: Entry | null;
  readonly start: number;
  readonly end: number;
}

/** The operand stack and the PostScript stack `callothersubr` fills, shared by a glyph and its subroutines. */
interface Machine {
  stack: Operand[];
  readonly postScript: Operand[];
  /** Subroutine numbers called, by the entry whose bytes write them. */
  readonly calls: Map<Entry, Operand[]>;
  readonly seac: number[];
  steps: number;
}

/** Subroutine calls followed at most this deep, and entries run at most this many times per font. */
const MAX_CALL_DEPTH = 10;
const MAX_STEPS = 200_000;

/**
 * Runs a charstring's operators that matter here: numbers, `callsubr` (the called subroutine runs
 * on the same stacks: hint replacement passes its subroutine's number through a call, `n 1 3
 * callothersubr pop callsubr`), `callothersubr`/`pop`, and seac (base and accent codes). Records
 * where each called number is written; false when a called number is not written anywhere (it
 * is computed) or names no subroutine.
 */
function run(
  entry: Entry,
  data: (entry: Entry) => Uint8Array,
  subroutine: (index: number) => Entry | undefined,
  machine: Machine,
  depth: number,
): boolean {
  const bytes = data(entry);
  machine.steps++;
  if (depth > MAX_CALL_DEPTH || machine.steps > MAX_STEPS) return false;
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i] ?? 0;
    if (byte >= 32) {
      const start = i;
      let value: number;
      if (byte <= 246) {
        value = byte - 139;
        i += 1;
      } else if (byte <= 250) {
        value = (byte - 247) * 256 + (bytes[i + 1] ?? 0) + 108;
        i += 2;
      } else if (byte <= 254) {
        value = -(byte - 251) * 256 - (bytes[i + 1] ?? 0) - 108;
        i += 2;
      } else {
        if (i + 5 > bytes.length) return false;
        value = new DataView(bytes.buffer, bytes.byteOffset + i + 1, 4).getInt32(0);
        i += 5;
      }
      machine.stack.push({ value, owner: entry, start, end: i });
      continue;
    }
    i += byte === ESCAPE ? 2 : 1;
    const op = byte === ESCAPE ? 32 + (bytes[i - 1] ?? 0) : byte;
    if (op === CALLSUBR) {
      const operand = machine.stack.pop();
      const called = operand === undefined ? undefined : subroutine(operand.value);
      if (operand?.owner == null || called === undefined) return false;
      const calls = machine.calls.get(operand.owner) ?? [];
      if (!calls.some((call) => call.start === operand.start)) calls.push(operand);
      machine.calls.set(operand.owner, calls);
      if (!run(called, data, subroutine, machine, depth + 1)) return false;
    } else if (op === RETURN) {
      return true;
    } else if (op === 32 + SEAC) {
      machine.seac.push(...machine.stack.slice(-2).map((operand) => operand.value));
      machine.stack = [];
    } else if (op === 32 + CALLOTHERSUBR) {
      machine.stack.pop();
      const count = machine.stack.pop()?.value ?? 0;
      machine.postScript.push(...(count > 0 ? machine.stack.splice(-count, count).reverse() : []));
    } else if (op === 32 + POP) {
      machine.stack.push(machine.postScript.pop() ?? { value: 0, owner: null, start: -1, end: -1 });
    } else if (op === 32 + DIV) {
      machine.stack.splice(-2, 2, { value: 0, owner: null, start: -1, end: -1 });
    } else machine.stack = [];
  }
  return true;
}

/** A charstring number in its shortest encoding. */
function encodeNumber(value: number): number[] {
  if (value >= -107 && value <= 107) return [value + 139];
  if (value >= 108 && value <= 1131) return [((value - 108) >> 8) + 247, (value - 108) & 0xff];
  if (value >= -1131 && value <= -108) return [((-value - 108) >> 8) + 251, (-value - 108) & 0xff];
  return [255, (value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** The charstring with its subroutine numbers replaced as `renumber` says. */
function renumbered(data: Uint8Array, calls: readonly Operand[], renumber: Map<number, number>): Uint8Array {
  const out: number[] = [];
  let at = 0;
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    // The same written number may be called twice (a hint replacement subroutine called again).
    if (call.start < at) continue;
    out.push(...data.subarray(at, call.start), ...encodeNumber(renumber.get(call.value) ?? call.value));
    at = call.end;
  }
  out.push(...data.subarray(at));
  return Uint8Array.from(out);
}

/**
 * The font program cut to the glyphs numbered `glyphs` (FreeType's numbering, which MuPDF draws
 * with: charstrings in file order, .notdef swapped to 0), or null when it cannot be cut safely.
 */
function subsetProgram(
  font: Uint8Array,
  stream: mupdf.PDFObject,
  glyphs: Set<number>,
): { bytes: Uint8Array; lengths: [number, number, number] } | null {
  const clearLength = stream.get("Length1").asNumber();
  const privateLength = stream.get("Length2").asNumber();
  const decrypted = decryptPrivatePart(font, clearLength, privateLength);
  if (decrypted === null) return null;
  const { text, lenIV, decode } = decrypted;

  const charStringsAt = /\/CharStrings\s+(\d+)\s+dict\s+dup\s+begin/.exec(text);
  if (charStringsAt === null) return null;
  const charStrings = readEntries(text, charStringsAt.index + charStringsAt[0].length, false);
  if (!/^\s*end/.test(text.slice(charStrings.end))) return null;
  const order = charStrings.entries.map((entry) => entry.key);
  const notdef = order.indexOf(".notdef");
  if (notdef < 0) return null;
  const numbering = [...order];
  [numbering[0], numbering[notdef]] = [order[notdef] ?? "", order[0] ?? ""];
  if (!numberingMatches(font, numbering)) return null;

  const keep = new Set([".notdef"]);
  for (const glyph of glyphs) {
    const name = numbering[glyph];
    if (name === undefined) return null;
    keep.add(name);
  }
  const byName = new Map(charStrings.entries.map((entry) => [entry.key, entry]));
  const subrsAt = /\/Subrs\s+(\d+)\s+array/.exec(text);
  const subrs = subrsAt ? readEntries(text, subrsAt.index + subrsAt[0].length, true) : null;
  const byIndex = new Map(subrs?.entries.map((entry) => [Number(entry.key), entry]));
  const callable = new Set<number>();
  for (let index = 0; index < RESERVED_SUBRS; index++) callable.add(index);
  const machine: Machine = { stack: [], postScript: [], calls: new Map(), seac: [], steps: 0 };
  // Glyphs (with the components of accented ones) run with the subroutines they call.
  const pending = [...keep];
  while (pending.length > 0) {
    const entry = byName.get(pending.pop() ?? "");
    if (entry === undefined) continue;
    machine.stack = [];
    machine.seac.length = 0;
    if (!run(entry, decode, (index) => byIndex.get(index), machine, 0)) return null;
    for (const code of machine.seac) {
      const component = STANDARD_ENCODING[code];
      if (component === undefined || !byName.has(component)) return null;
      if (keep.has(component)) continue;
      keep.add(component);
      pending.push(component);
    }
  }
  const callsOf = machine.calls;
  for (const calls of callsOf.values()) for (const call of calls) callable.add(call.value);
  // Kept subroutines are numbered again 0, 1, 2, … (0–3 stay where they are) when the array is
  // numbered that way already; otherwise every subroutine stays where it is.
  const dense = subrs?.entries.every((entry, index) => Number(entry.key) === index) === true;
  const keptSubrs =
    subrs === null ? [] : subrs.entries.filter((entry) => !dense || callable.has(Number(entry.key)));
  const renumber = new Map(
    keptSubrs.map((entry, index) => [Number(entry.key), dense ? index : Number(entry.key)]),
  );
  /** An entry with its data renumbered, its header (length, and a subroutine's index) written by `header`. */
  const rewrite = (entry: Entry, header: (length: number) => [RegExp, string]) => {
    const calls = callsOf.get(entry) ?? [];
    let data = text.slice(entry.dataStart, entry.dataEnd);
    if (!calls.every((call) => renumber.get(call.value) === call.value)) {
      const plain = renumbered(decode(entry), calls, renumber);
      const prefixed = Uint8Array.from([...new Array<number>(Math.max(0, lenIV)).fill(0), ...plain]);
      data = latin1.decode(lenIV < 0 ? plain : encrypt(prefixed, CHARSTRING_KEY));
    }
    const [pattern, replacement] = header(data.length);
    return `${text.slice(entry.start, entry.dataStart).replace(pattern, replacement)}${data}${text.slice(entry.dataEnd, entry.end)}`;
  };

  const kept = charStrings.entries.filter((entry) => keep.has(entry.key));
  const glyphText = kept
    .map((entry) => rewrite(entry, (length) => [/^(\s*\/\S+\s+)\d+/, `$1${length}`]))
    .join("");
  let rebuilt = `${text.slice(0, charStringsAt.index)}/CharStrings ${kept.length} dict dup begin${glyphText}${text.slice(charStrings.end)}`;
  if (subrs !== null && subrsAt !== null && dense) {
    if (subrsAt.index > charStringsAt.index) return null;
    const subrText = keptSubrs
      .map((entry) =>
        rewrite(entry, (length) => [
          /^(\s*dup\s+)\d+(\s+)\d+/,
          `$1${renumber.get(Number(entry.key))}$2${length}`,
        ]),
      )
      .join("");
    rebuilt = `${rebuilt.slice(0, subrsAt.index)}/Subrs ${keptSubrs.length} array${subrText}${rebuilt.slice(subrs.end)}`;
  }
  const privatePart = encrypt(fromLatin1(rebuilt), EEXEC_KEY);
  const trailer = font.subarray(clearLength + privateLength);
  const bytes = new Uint8Array(clearLength + privatePart.length + trailer.length);
  bytes.set(font.subarray(0, clearLength), 0);
  bytes.set(privatePart, clearLength);
  bytes.set(trailer, clearLength + privatePart.length);
  return { bytes, lengths: [clearLength, privatePart.length, trailer.length] };
}

/**
 * Whether FreeType (through MuPDF) numbers the font's glyphs as `numbering` says: glyphs with
 * plain letter and digit names are looked up by their Unicode value, and at least one must be.
 */
function numberingMatches(font: Uint8Array, numbering: readonly string[]): boolean {
  const loaded = new mupdf.Font("check", font);
  try {
    let checked = 0;
    for (const name of CHECKED_NAMES) {
      const index = numbering.indexOf(name);
      if (index < 0) continue;
      const unicode = name.length === 1 ? name.charCodeAt(0) : 0x30 + DIGIT_NAMES.indexOf(name);
      if (loaded.encodeCharacter(unicode) !== index) return false;
      checked++;
    }
    return checked > 0;
  } finally {
    loaded.destroy();
  }
}

/** A Type 1 program read for conversion: its clear-text part, charstrings and subroutines (decrypted). */
export interface Type1Program {
  readonly clearText: string;
  /** Charstrings in FreeType's numbering (file order, .notdef swapped to 0). */
  readonly glyphs: readonly { readonly name: string; readonly charstring: Uint8Array }[];
  readonly subrs: ReadonlyMap<number, Uint8Array>;
}

/** Reads the charstrings and subroutines of a binary (PFB-style) Type 1 program, or null. */
export function readType1Program(
  font: Uint8Array,
  clearLength: number,
  privateLength: number,
): Type1Program | null {
  const decrypted = decryptPrivatePart(font, clearLength, privateLength);
  if (decrypted === null) return null;
  const { text, decode } = decrypted;
  const charStringsAt = /\/CharStrings\s+(\d+)\s+dict\s+dup\s+begin/.exec(text);
  if (charStringsAt === null) return null;
  const entries = readEntries(text, charStringsAt.index + charStringsAt[0].length, false).entries;
  const notdef = entries.findIndex((entry) => entry.key === ".notdef");
  if (notdef < 0) return null;
  const ordered = [...entries];
  [ordered[0], ordered[notdef]] = [entries[notdef] as Entry, entries[0] as Entry];
  const subrsAt = /\/Subrs\s+(\d+)\s+array/.exec(text);
  const subrs = subrsAt ? readEntries(text, subrsAt.index + subrsAt[0].length, true).entries : [];
  return {
    clearText: latin1.decode(font.subarray(0, clearLength)),
    glyphs: ordered.map((entry) => ({ name: entry.key, charstring: decode(entry) })),
    subrs: new Map(subrs.map((entry) => [Number(entry.key), decode(entry)])),
  };
}
