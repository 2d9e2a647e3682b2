import { deflateSync } from "node:zlib";
import type * as mupdf from "mupdf";
import { codedPlainly } from "./compress-streams.ts";
import { ContentLexer, isObjectKeyword } from "./content-lexer.ts";

/** One operator of a content stream with its operands. */
export interface Operation {
  readonly operator: string;
  readonly operands: readonly string[];
  /** Whether an operand is a dictionary (a marked-content property list written in place). */
  readonly inlineDictionary: boolean;
  /** From the first operand to the end of the operator. */
  readonly start: number;
  readonly end: number;
}

/** The streams of a page's /Contents (one stream, or an array of them), other values left out. */
export function contentStreams(page: mupdf.PDFObject): mupdf.PDFObject[] {
  const contents = page.get("Contents");
  const parts = contents.isArray()
    ? Array.from({ length: contents.length }, (_, i) => contents.get(i))
    : [contents];
  return parts.filter((part) => part.isStream());
}

/** White space from a position on (sticky). */
const WHITE_RUN = /[\0\t\n\f\r ]*/y;

/**
 * A content stream's text (Latin-1, a character a byte) and operations, or null when it holds an
 * inline image (binary data) or is coded with other than parameterless lossless filters.
 */
export function readOperations(stream: mupdf.PDFObject): { text: string; operations: Operation[] } | null {
  if (!stream.get("Filter").isNull() && !codedPlainly(stream)) return null;
  const text = new TextDecoder("latin1").decode(stream.readStream().asUint8Array());
  const lexer = new ContentLexer(text);
  const operations: Operation[] = [];
  let operands: string[] = [];
  let start = -1;
  let depth = 0;
  let inlineDictionary = false;
  while (lexer.next()) {
    if (start < 0) start = lexer.start;
    if (lexer.kind === "<<" || lexer.kind === "[") {
      depth++;
      inlineDictionary ||= lexer.kind === "<<";
    } else if (lexer.kind === ">>" || lexer.kind === "]") depth--;
    if (lexer.kind !== "word" || depth > 0 || isObjectKeyword(lexer.text)) {
      operands.push(lexer.text);
      continue;
    }
    if (lexer.text === "BI") return null;
    operations.push({ operator: lexer.text, operands, inlineDictionary, start, end: lexer.end });
    operands = [];
    start = -1;
    inlineDictionary = false;
  }
  return { text, operations };
}

/**
 * `text` with each edited operation replaced by its new text; an operation replaced by nothing
 * takes the white space after it along.
 */
export function withEdits(text: string, edits: readonly { op: Operation; text: string }[]): string {
  let out = "";
  let copied = 0;
  for (const edit of edits) {
    out += text.slice(copied, edit.op.start) + edit.text;
    WHITE_RUN.lastIndex = edit.op.end;
    if (edit.text === "") WHITE_RUN.exec(text);
    copied = edit.text === "" ? WHITE_RUN.lastIndex : edit.op.end;
  }
  return out + text.slice(copied);
}

/**
 * Replaces the stream's data with `text` (Latin-1) deflated, when that is smaller than the data as
 * stored plus `allowance` (what the rewrite saves elsewhere; a producer's deflate can beat ours on
 * the same text: a 2.6 MB page lost 1.6 KB), or as it is when the stream was stored without a
 * filter (the save deflates it). Returns whether it did.
 */
export function writeContent(
  pdf: mupdf.PDFDocument,
  stream: mupdf.PDFObject,
  text: string,
  allowance = 0,
): boolean {
  const bytes = Buffer.from(text, "latin1");
  if (stream.get("Filter").isNull()) {
    stream.writeStream(bytes);
    return true;
  }
  const deflated = deflateSync(bytes, { level: 9, memLevel: 9 });
  if (deflated.length >= stream.readRawStream().getLength() + allowance) return false;
  stream.writeRawStream(deflated);
  stream.put("Filter", pdf.newName("FlateDecode"));
  stream.delete("DecodeParms");
  return true;
}

/** The page's resources, inherited from the page tree when the page has none of its own. */
export function pageResources(page: mupdf.PDFObject): mupdf.PDFObject {
  let node = page;
  for (let depth = 0; depth < 64 && node.isDictionary(); depth++) {
    if (!node.get("Resources").isNull()) return node.get("Resources");
    node = node.get("Parent");
  }
  return page.get("Resources");
}
