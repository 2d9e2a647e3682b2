/**
 * A Type 1 font program built in code (Adobe Type 1 Font Format): every letter and digit a glyph of
 * its own shape, weighted with a long outline, through the machinery real fonts use: flex and hint
 * replacement subroutines (0–4), a subroutine only unused glyphs call, and one the letter "T"
 * calls directly and another it reaches through hint replacement (their numbers change when
 * unused subroutines go). Returned as the clear-text and eexec parts a PDF /FontFile holds.
 */

const EEXEC_KEY = 55665;
const CHARSTRING_KEY = 4330;

function encrypted(plain: readonly number[], key: number): number[] {
  let r = key;
  return plain.map((byte) => {
    const cipher = byte ^ (r >> 8);
    r = ((cipher + r) * 52845 + 22719) & 0xffff;
    return cipher;
  });
}

/** A charstring from numbers and operator names. */
function charstring(...tokens: readonly (number | string)[]): number[] {
  const operators: Record<string, number[]> = {
    hstem: [1],
    vstem: [3],
    rlineto: [5],
    closepath: [9],
    callsubr: [10],
    return: [11],
    hsbw: [13],
    endchar: [14],
    rmoveto: [21],
    callothersubr: [12, 16],
    pop: [12, 17],
    setcurrentpoint: [12, 33],
  };
  const bytes: number[] = [];
  for (const token of tokens) {
    if (typeof token === "string") bytes.push(...(operators[token] ?? []));
    else if (token >= -107 && token <= 107) bytes.push(token + 139);
    else if (token >= 108 && token <= 1131) bytes.push(((token - 108) >> 8) + 247, (token - 108) & 0xff);
    else if (token >= -1131 && token <= -108) bytes.push(((-token - 108) >> 8) + 251, (-token - 108) & 0xff);
    else throw new Error(`number out of range: ${token}`);
  }
  return encrypted([0, 0, 0, 0, ...bytes], CHARSTRING_KEY);
}

/** A zigzag of `steps` segments: an outline long enough to weigh in the font. */
function zigzag(steps: number, seed: number): (number | string)[] {
  const tokens: (number | string)[] = [];
  for (let step = 0; step < steps; step++)
    tokens.push(4 + ((seed + step) % 5), step % 2 === 0 ? 30 : -30, "rlineto");
  return tokens;
}

const GLYPHS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"];

export function type1Font(name: string): { clear: Uint8Array; encrypted: Uint8Array } {
  const subrs: number[][] = [
    charstring(3, 0, "callothersubr", "pop", "pop", "setcurrentpoint", "return"),
    charstring(0, 1, "callothersubr", "return"),
    charstring(0, 2, "callothersubr", "return"),
    charstring("return"),
    charstring(1, 3, "callothersubr", "pop", "callsubr", "return"),
    // Only capitals at odd places call this one (B, D, F, …; not T, which has a path of its own).
    charstring(...zigzag(400, 1), "return"),
    // "T" calls this one directly and 7 through hint replacement.
    charstring(0, 600, "rlineto", 500, 0, "rlineto", 0, -600, "rlineto", "return"),
    charstring(0, 60, "hstem", "return"),
  ];
  const glyph = (letter: string, index: number): number[] => {
    const body: (number | string)[] = [40, 600, "hsbw", 7, 4, "callsubr", 60 + index, 0, "rmoveto"];
    if (letter === "T") body.push(6, "callsubr");
    else if (index < 26 && index % 2 === 1) body.push(...zigzag(40, index), 5, "callsubr");
    else body.push(...zigzag(120, index));
    return charstring(...body, "closepath", "endchar");
  };
  const charstrings: [string, number[]][] = [
    [".notdef", charstring(0, 500, "hsbw", "endchar")],
    ["space", charstring(0, 250, "hsbw", "endchar")],
    ...GLYPHS.map((letter, index): [string, number[]] => [letter, glyph(letter, index)]),
  ];
  const text = (value: string) => Array.from(value, (char) => char.charCodeAt(0));
  const privatePart: number[] = [
    0,
    0,
    0,
    0,
    ...text(
      "dup /Private 8 dict dup begin\n/RD{string currentfile exch readstring pop}executeonly def\n" +
        "/ND{noaccess def}executeonly def\n/NP{noaccess put}executeonly def\n/BlueValues [-10 0 700 710] ND\n" +
        `/MinFeature{16 16} ND\n/password 5839 def\n/Subrs ${subrs.length} array\n`,
    ),
  ];
  for (const [index, data] of subrs.entries())
    privatePart.push(...text(`dup ${index} ${data.length} RD `), ...data, ...text(" NP\n"));
  privatePart.push(...text(`ND\n2 index /CharStrings ${charstrings.length} dict dup begin\n`));
  for (const [glyphName, data] of charstrings)
    privatePart.push(...text(`/${glyphName} ${data.length} RD `), ...data, ...text(" ND\n"));
  privatePart.push(
    ...text(
      "end\nend\nreadonly put\nnoaccess put\ndup/FontName get exch definefont pop\nmark currentfile closefile\n",
    ),
  );
  const clear = text(
    `%!PS-AdobeFont-1.0: ${name} 001.000\n11 dict begin\n/FontInfo 2 dict dup begin\n/FullName (${name}) readonly def\nend readonly def\n` +
      `/FontName /${name} def\n/Encoding StandardEncoding def\n/PaintType 0 def\n/FontType 1 def\n` +
      "/FontMatrix [0.001 0 0 0.001 0 0] readonly def\n/FontBBox {0 -100 1000 800} readonly def\n" +
      "currentdict end\ncurrentfile eexec\n",
  );
  return { clear: Uint8Array.from(clear), encrypted: Uint8Array.from(encrypted(privatePart, EEXEC_KEY)) };
}
