/**
 * Drawing form XObjects (text lines from stamp-text.ts, images) on existing pages, as the page is
 * seen: positions are given on the displayed page (crop box, page rotation applied, origin top
 * left, y down), so "bottom right" is where a reader sees it on a turned page too. The page's own
 * content is wrapped in q/Q so whatever graphics state it leaves behind cannot move the stamps;
 * stamps go over the content or, for a watermark under it, before it. A content that gives an
 * operator fewer operands than it takes is drawn from a form XObject of its own: Poppler stops
 * reading a content stream there, and would never reach the stamps after it. The page gets
 * resources of its own (a copy of those it used, possibly inherited or shared with other pages).
 */
import * as mupdf from "mupdf";
import { ContentLexer, isObjectKeyword } from "./content-lexer.ts";

/** The displayed page: its size in points and the matrix from display space to PDF space. */
export interface PageFrame {
  readonly width: number;
  readonly height: number;
  readonly toPdf: mupdf.Matrix;
}

export function pageFrame(doc: mupdf.PDFDocument, index: number): PageFrame {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    return { width: x1 - x0, height: y1 - y0, toPdf: mupdf.Matrix.invert(page.getTransform()) };
  } finally {
    page.destroy();
  }
}

/**
 * The matrix that draws a form of box [0 0 width height] (PDF space, y up) with its centre at
 * (x, y) of the displayed page, turned `degrees` anticlockwise as the reader sees it, scaled by
 * `scale`.
 */
export function placeForm(
  frame: PageFrame,
  box: { readonly width: number; readonly height: number },
  x: number,
  y: number,
  degrees: number,
  scale = 1,
): mupdf.Matrix {
  let matrix: mupdf.Matrix = [1, 0, 0, -1, -box.width / 2, box.height / 2];
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.scale(scale, scale));
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.rotate(-degrees));
  matrix = mupdf.Matrix.concat(matrix, mupdf.Matrix.translate(x, y));
  return mupdf.Matrix.concat(matrix, frame.toPdf);
}

export interface Stamp {
  readonly form: mupdf.PDFObject;
  readonly matrix: mupdf.Matrix;
  /** Drawn in text render mode 3 (no paint): text that extractors read and nobody sees. */
  readonly invisible?: boolean;
}

export interface StampOptions {
  /** 0–1; 1 draws without a transparency group. */
  readonly opacity: number;
  /** Under the page's content instead of over it. */
  readonly under: boolean;
}

const number = (value: number) => (Math.abs(value) < 1e-9 ? "0" : Number(value.toFixed(4)).toString());

/** A resource name not yet used in `dictionary`. */
function freeName(dictionary: mupdf.PDFObject, prefix: string): string {
  for (let i = 1; ; i++) {
    const name = `${prefix}${i}`;
    if (!dictionary.isDictionary() || dictionary.get(name).isNull()) return name;
  }
}

/** A shallow copy of `source` (a dictionary, or nothing) as a new direct dictionary. */
export function copyDictionary(doc: mupdf.PDFDocument, source: mupdf.PDFObject): mupdf.PDFObject {
  const copy = doc.newDictionary();
  if (source.isDictionary()) {
    source.forEach((value, key) => {
      copy.put(key, value);
    });
  }
  return copy;
}

/** Draws `stamps` on page `index` of `doc`. */
export function drawStamps(
  doc: mupdf.PDFDocument,
  index: number,
  stamps: readonly Stamp[],
  options: StampOptions,
): void {
  if (stamps.length === 0) return;
  const page = doc.findPage(index);
  const ownResources = page.getInheritable("Resources");
  const resources = copyDictionary(doc, ownResources);
  const xobjects = copyDictionary(doc, resources.get("XObject"));
  const states = copyDictionary(doc, resources.get("ExtGState"));
  let state = "";
  if (options.opacity < 1) {
    state = freeName(states, "StampGS");
    states.put(state, doc.newDictionary());
    states.get(state).put("Type", doc.newName("ExtGState"));
    states.get(state).put("ca", options.opacity);
    states.get(state).put("CA", options.opacity);
  }
  const drawn: string[] = [];
  const names = new Map<number, string>();
  for (const stamp of stamps) {
    const key = stamp.form.asIndirect();
    let name = names.get(key);
    if (name === undefined) {
      name = freeName(xobjects, "Stamp");
      xobjects.put(name, stamp.form);
      names.set(key, name);
    }
    const mode = stamp.invisible === true ? "3 Tr " : "";
    drawn.push(`q ${mode}${stamp.matrix.map(number).join(" ")} cm /${name} Do Q`);
  }
  const stampContent = `q ${state === "" ? "" : `/${state} gs `}\n${drawn.join("\n")}\nQ\n`;
  const original = page.get("Contents");
  const parts: mupdf.PDFObject[] = [];
  if (original.isArray()) for (let i = 0; i < original.length; i++) parts.push(original.get(i));
  else if (!original.isNull()) parts.push(original);
  const stream = (text: string) => doc.addStream(text, {});
  // As many saves as the page's content restores beyond its own, and restores for what it leaves
  // saved, after closing a string or array it leaves open: its graphics state cannot reach the
  // stamps, balanced or not, nor its syntax swallow them.
  // Bytes as Latin-1 characters: a string of text converted to UTF-8 stops at the first NUL (TCPDF's
  // two-byte strings, issue2074.pdf: the rest of the page was not read, a string seen open).
  const bytes = parts.map((part) => part.readStream().asUint8Array());
  const scan = scanContent(bytes.map((part) => LATIN1.decode(part)).join("\n"));
  const open = "q\n".repeat(1 + scan.unmatched);
  const close = `\n${scan.closing === "" ? "" : `${scan.closing}\n`}${"Q\n".repeat(1 + scan.left)}`;
  let contents: mupdf.PDFObject[];
  if (scan.shortOperator !== undefined) {
    // Issue2391-1.pdf ("undefined 10 Tf"): Poppler ends the content stream at the short operator,
    // the page's streams read as one; a form's stream ends only itself.
    const name = freeName(xobjects, "Content");
    xobjects.put(name, contentForm(doc, ownResources, [ASCII.encode(open), ...bytes, ASCII.encode(close)]));
    const drawPage = stream(`q /${name} Do Q\n`);
    contents = options.under ? [stream(stampContent), drawPage] : [drawPage, stream(stampContent)];
  } else {
    contents = options.under
      ? [stream(stampContent), stream(open), ...parts, stream(close)]
      : [stream(open), ...parts, stream(`${close}${stampContent}`)];
  }
  resources.put("XObject", xobjects);
  if (state !== "") resources.put("ExtGState", states);
  page.put("Resources", resources);
  const array = doc.newArray();
  for (const part of contents) array.push(part);
  page.put("Contents", array);
}

const LATIN1 = new TextDecoder("latin1");
const ASCII = new TextEncoder();

/**
 * A form XObject drawing `parts` (a page's content streams, decoded) with the page's resources,
 * in the page's own space: its box the largest the PDF format allows, so it clips nothing.
 */
function contentForm(
  doc: mupdf.PDFDocument,
  resources: mupdf.PDFObject,
  parts: readonly Uint8Array[],
): mupdf.PDFObject {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 1, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    joined[at + part.length] = 0x0a;
    at += part.length + 1;
  }
  const form = doc.newDictionary();
  form.put("Type", doc.newName("XObject"));
  form.put("Subtype", doc.newName("Form"));
  const box = doc.newArray();
  for (const value of [-32767, -32767, 32767, 32767]) box.push(value);
  form.put("BBox", box);
  if (resources.isDictionary()) form.put("Resources", resources);
  return doc.addStream(joined, form);
}

/**
 * The operands each operator of PDF 2.0's table A.1 takes, for those that take a fixed number of
 * one or more (sc, scn, SC and SCN take as many as their colour space has components).
 */
const OPERANDS: Readonly<Record<string, number>> = {
  '"': 3,
  "'": 1,
  BDC: 2,
  BMC: 1,
  CS: 1,
  DP: 2,
  Do: 1,
  G: 1,
  J: 1,
  K: 4,
  M: 1,
  MP: 1,
  RG: 3,
  TD: 2,
  TJ: 1,
  TL: 1,
  Tc: 1,
  Td: 2,
  Tf: 2,
  Tj: 1,
  Tm: 6,
  Tr: 1,
  Ts: 1,
  Tw: 1,
  Tz: 1,
  c: 6,
  cm: 6,
  cs: 1,
  d: 2,
  d0: 2,
  d1: 6,
  g: 1,
  gs: 1,
  i: 1,
  j: 1,
  k: 4,
  l: 2,
  m: 2,
  re: 4,
  rg: 3,
  ri: 1,
  sh: 1,
  v: 4,
  w: 1,
  y: 4,
};

/**
 * How a page's content stream ends, read as a content lexer reads it (strings, comments and inline
 * image data skipped): `unmatched` restores (Q) beyond its saves (found in the wide corpus:
 * bug1157493.pdf starts with one, which popped the stamps' own save and left them drawn under the
 * page's transform, off the page); `left`, the saves open at its end counted from its lowest
 * point: after 1 + unmatched saves of ours, 1 + left restores close all; `closing`, what ends
 * a string, array or dictionary it leaves open (issue15893_reduced.pdf, whose content does not
 * decrypt to PDF syntax, opens an array: readers took the stamps drawn after it for its items);
 * and `shortOperator`, the first operator given fewer operands than it takes, where Poppler stops
 * reading (issue2391-1.pdf's "undefined 10 Tf": an unknown word where the font name goes), or
 * undefined.
 */
export function scanContent(content: string): {
  unmatched: number;
  left: number;
  closing: string;
  shortOperator: string | undefined;
} {
  let depth = 0;
  let lowest = 0;
  /** What closes each array and dictionary open at this point, innermost last. */
  const open: string[] = [];
  let string = "";
  /** Operands since the last operator, at the top level (an array or dictionary counts as one). */
  let operands = 0;
  let shortOperator: string | undefined;
  const lexer = new ContentLexer(content);
  while (lexer.next()) {
    const kind = lexer.kind;
    if (kind === "[" || kind === "<<") {
      open.push(kind === "[" ? "]" : ">>");
      continue;
    }
    if (kind === "]" || kind === ">>") {
      if (open.at(-1) === kind) open.pop();
    } else if (kind === "string") {
      if (lexer.unclosed !== "") string = lexer.unclosed;
    }
    if (open.length > 0) continue;
    const word = kind === "word" ? lexer.text : "";
    if (kind !== "word" || isObjectKeyword(word)) {
      operands++;
      continue;
    }
    if (shortOperator === undefined && operands < (OPERANDS[word] ?? 0)) shortOperator = word;
    operands = 0;
    if (word === "q") depth++;
    else if (word === "Q") lowest = Math.min(lowest, --depth);
    else if (word === "ID") lexer.imageData();
  }
  const closing = [string, ...open.reverse()].filter(Boolean).join(" ");
  return { unmatched: 0 - lowest, left: depth - lowest, closing, shortOperator };
}
