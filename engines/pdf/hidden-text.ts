/**
 * Text MuPDF's structured text misses on a page where it finds none, though other extractors
 * (pdftotext) read it:
 * - an operator inside a `TJ` array (`[(Grandes) 0.0 Tc -250 (Clientèles)] TJ`, written by some
 *   producers): MuPDF's content parser drops the whole array, so the page shows no text at all.
 *   Poppler skips the stray operator; so does `withoutOperatorsInArrays`, on a copy of the page's
 *   content used only while its text is read;
 * - text shown in render mode 7 (`7 Tr`: added to the clipping path, not painted), which MuPDF's
 *   text device does not collect: `clipText` reads it as if it were painted.
 */
import * as mupdf from "mupdf";

/** PDF white space and delimiters (ISO 32000-1 §7.2.2). */
const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([..."()<>[]{}/%"].map((c) => c.charCodeAt(0)));
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** Words that are values, not operators, inside an array. */
const VALUE_WORDS = new Set(["true", "false", "null"]);

/**
 * The content stream (latin-1 text) with every operator that stands inside an array removed, or
 * null when it has none. Strings, hex strings, comments, dictionaries and inline image data are
 * passed through as they are.
 */
export function withoutOperatorsInArrays(content: string): string | null {
  let out = "";
  let copiedTo = 0;
  let depth = 0;
  let removed = false;
  let i = 0;
  const n = content.length;
  const code = (at: number) => content.charCodeAt(at);
  while (i < n) {
    const c = code(i);
    if (WHITE.has(c)) i++;
    else if (c === 0x25 /* % */) {
      while (i < n && code(i) !== 0x0a && code(i) !== 0x0d) i++;
    } else if (c === 0x28 /* ( */) i = stringEnd(content, i);
    else if (c === 0x3c /* < */) {
      // `<<` opens a dictionary; `<` a hex string.
      i = code(i + 1) === 0x3c ? i + 2 : content.indexOf(">", i) + 1 || n;
    } else if (c === 0x3e /* > */) i += code(i + 1) === 0x3e ? 2 : 1;
    else if (c === 0x5b /* [ */) {
      depth++;
      i++;
    } else if (c === 0x5d /* ] */) {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === 0x2f /* / */) i = wordEnd(content, i + 1);
    else if (DELIMITERS.has(c)) i++;
    else {
      const end = wordEnd(content, i);
      const word = content.slice(i, end);
      if (depth > 0 && !NUMBER.test(word) && !VALUE_WORDS.has(word)) {
        out += `${content.slice(copiedTo, i)} `;
        copiedTo = end;
        removed = true;
      } else if (word === "ID" && depth === 0) {
        // Inline image data runs to `EI` after white space: skip it whole.
        const data = /[\t\n\f\r ]EI(?=[\t\n\f\r \0]|$)/g;
        data.lastIndex = end + 1;
        const found = data.exec(content);
        i = found === null ? n : found.index + found[0].length;
        continue;
      }
      i = end;
    }
  }
  return removed ? out + content.slice(copiedTo) : null;
}

/** Index after the literal string opening at `start` (balanced parentheses, `\` escapes). */
function stringEnd(content: string, start: number): number {
  let nesting = 0;
  for (let i = start; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x28) nesting++;
    else if (c === 0x29 && --nesting === 0) return i + 1;
  }
  return content.length;
}

/** Index after the run of regular characters starting at `start`. */
function wordEnd(content: string, start: number): number {
  let i = start;
  while (i < content.length && !WHITE.has(content.charCodeAt(i)) && !DELIMITERS.has(content.charCodeAt(i)))
    i++;
  return i;
}

/**
 * Runs `read` while the page's content is replaced by a copy without operators inside arrays;
 * returns null (and does not run it) when the content has none. The page's own content object is
 * put back afterwards (the copy is never saved).
 */
export function withArraysRepaired<T>(page: mupdf.PDFPage, read: () => T): T | null {
  const object = page.getObject();
  const contents = object.get("Contents");
  const streams = contents.isArray()
    ? Array.from({ length: contents.length }, (_, i) => contents.get(i))
    : [contents];
  const decoder = new TextDecoder("latin1");
  const text = streams
    .filter((stream) => stream.isStream())
    .map((stream) => decoder.decode(stream.readStream().asUint8Array()))
    .join("\n");
  const repaired = withoutOperatorsInArrays(text);
  if (repaired === null) return null;
  const bytes = Uint8Array.from(repaired, (char) => char.charCodeAt(0));
  object.put("Contents", page._doc.addStream(bytes, {}));
  try {
    return read();
  } finally {
    object.put("Contents", contents);
  }
}

/**
 * The page's text shown in clipping mode (`7 Tr`, or stroked into a clip), as structured text, or
 * null when it has none. The page is run itself: its display list leaves out a clip whose glyphs
 * have no outline (a font whose glyphs cannot be loaded: recursiveCompositGlyf.pdf).
 */
export function clipText(page: mupdf.Page, options: string): mupdf.StructuredText | null {
  const list = new mupdf.DisplayList(page.getBounds());
  const target = new mupdf.DisplayListDevice(list);
  let found = false;
  const collect = (text: mupdf.Text, ctm: mupdf.Matrix) => {
    found = true;
    // As painted black: MuPDF's text device keeps no text it is told to ignore.
    target.fillText(text, ctm, mupdf.ColorSpace.DeviceGray, [0], 1);
  };
  const device = new mupdf.Device({
    clipText: collect,
    clipStrokeText: (text, _stroke, ctm) => collect(text, ctm),
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
    target.close();
    return found ? list.toStructuredText(options) : null;
  } finally {
    device.destroy();
    target.destroy();
    list.destroy();
  }
}
