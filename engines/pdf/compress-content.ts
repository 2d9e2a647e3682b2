import type * as mupdf from "mupdf";
import { concatBytes } from "../bytes.ts";
import { codedPlainly, writeDeflated } from "./compress-streams.ts";
import { everyObject } from "./every-object.ts";
import { isContentXObject } from "./object-kinds.ts";

/** A stream is rewritten only when this share of it or more is saved. */
const MIN_SAVING = 0.05;
/** Operators that build a path: their operands are coordinates only. */
const PATH_OPERATORS = new Set(["m", "l", "c", "v", "y", "re"]);
/** Byte classes (PDF 32000-1 §7.2.2): 0 regular, 1 white space, 2 delimiter. */
const WHITE = 1;
const DELIMITER = 2;
const BYTE_CLASS = new Uint8Array(256);
for (const byte of [0, 9, 10, 12, 13, 32]) BYTE_CLASS[byte] = WHITE;
for (const c of "()<>[]{}/%") BYTE_CLASS[c.charCodeAt(0)] = DELIMITER;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** Longest token read as text: numbers and operators are short; longer runs are neither. */
const MAX_TOKEN = 32;

/**
 * Writes the coordinates of paths in content streams (pages, form XObjects and so annotation
 * appearances, tiling patterns) with `digits` significant digits. Plotting and CAD programs write
 * every coordinate with six decimals (45.093819 555.56219 l): at 5 significant digits a point moves
 * by at most 1/20,000 of its distance from the origin (0.03 pt on a page 600 pt tall, a tenth of a
 * pixel at 600 ppi), and such a stream deflates to about half (a 264 KB map page to 145 KB).
 * Operands of other operators (matrices, line widths, colours, text) are left exactly as they were,
 * and a stream with an inline image (binary data the scan could misread) is left whole.
 * Returns the bytes saved.
 */
export function roundPathCoordinates(pdf: mupdf.PDFDocument, digits: number): number {
  const contents = new Set<number>();
  for (let index = 0; index < pdf.countPages(); index++) {
    const value = pdf.findPage(index).get("Contents");
    // An indirect array of streams reads as an array too.
    if (value.isArray()) {
      for (let i = 0; i < value.length; i++)
        if (value.get(i).isIndirect()) contents.add(value.get(i).asIndirect());
    } else if (value.isIndirect()) contents.add(value.asIndirect());
  }
  let saved = 0;
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (!object.isStream() || !(contents.has(num) || isContentXObject(object))) continue;
      if (!object.get("Filter").isNull() && !codedPlainly(object)) continue;
      const rounded = roundedContent(object.readStream().asUint8Array(), digits);
      if (rounded !== null) saved += writeDeflated(pdf, object, rounded, MIN_SAVING);
    } catch {
      // A stream that does not decode cleanly is left exactly as it is.
    }
  }
  return saved;
}

/**
 * The content with path operands rounded (see roundPathCoordinates), or null when nothing changed
 * or the stream holds an inline image.
 */
export function roundedContent(content: Uint8Array, digits: number): Uint8Array | null {
  const edits: { start: number; end: number; text: string }[] = [];
  // Number tokens since the last operator, or null when another kind of operand came among them.
  let operands: { start: number; end: number }[] | null = [];
  let at = 0;
  while (at < content.length) {
    const byte = content[at] ?? 0;
    const kind = BYTE_CLASS[byte];
    if (kind === WHITE) {
      at++;
      continue;
    }
    if (kind === DELIMITER) {
      at = skipDelimited(content, at);
      operands = null;
      continue;
    }
    const start = at;
    while (at < content.length && BYTE_CLASS[content[at] ?? 0] === 0) at++;
    const token = at - start > MAX_TOKEN ? "" : String.fromCharCode(...content.subarray(start, at));
    if (NUMBER.test(token)) {
      operands?.push({ start, end: at });
      continue;
    }
    if (token === "BI") return null;
    if (PATH_OPERATORS.has(token) && operands !== null) {
      for (const operand of operands) {
        const text = String.fromCharCode(...content.subarray(operand.start, operand.end));
        const shorter = roundNumber(text, digits);
        if (shorter.length < text.length) edits.push({ ...operand, text: shorter });
      }
    }
    operands = [];
  }
  if (edits.length === 0) return null;
  return applyEdits(content, edits);
}

/** Where the delimited item starting at `at` ends: a string, hex string, name, comment or bracket. */
function skipDelimited(content: Uint8Array, at: number): number {
  const byte = String.fromCharCode(content[at] ?? 0);
  if (byte === "(") {
    let depth = 0;
    for (let i = at; i < content.length; i++) {
      const c = content[i];
      if (c === 0x5c) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return i + 1;
    }
    return content.length;
  }
  if (byte === "<" && content[at + 1] !== 0x3c) {
    const end = content.indexOf(0x3e, at);
    return end < 0 ? content.length : end + 1;
  }
  if (byte === "%") {
    let i = at;
    while (i < content.length && content[i] !== 10 && content[i] !== 13) i++;
    return i;
  }
  if (byte === "/") {
    let i = at + 1;
    while (i < content.length && BYTE_CLASS[content[i] ?? 0] === 0) i++;
    return i;
  }
  // << >> [ ] { } and a lone >.
  return byte === "<" || (byte === ">" && content[at + 1] === 0x3e) ? at + 2 : at + 1;
}

/** `text` (a PDF number) with at most `digits` significant digits, without needless zeros. */
export function roundNumber(text: string, digits: number): string {
  const value = Number(text);
  // toFixed writes exponents from 1e21: far beyond any coordinate, left as written.
  if (!Number.isFinite(value) || value === 0 || Math.abs(value) >= 1e15 || !text.includes(".")) return text;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  let out = value.toFixed(decimals);
  if (out.includes(".")) out = out.replace(/0+$/, "").replace(/\.$/, "");
  out = out.replace(/^(-?)0\./, "$1.");
  if (out === "-0" || out === "" || out === "-" || out === ".") return "0";
  return out;
}

function applyEdits(content: Uint8Array, edits: readonly { start: number; end: number; text: string }[]) {
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(
      content.subarray(from, edit.start),
      Uint8Array.from(edit.text, (c) => c.charCodeAt(0)),
    );
    from = edit.end;
  }
  parts.push(content.subarray(from));
  return concatBytes(parts);
}
