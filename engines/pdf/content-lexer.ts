/**
 * The tokens of a page's content stream (ISO 32000-1 §7.2, §8.9.7), read as Poppler's lexer reads
 * them, for the tools that must see a content stream as a reader does before they change it (stamps,
 * text another extractor finds). The content is Latin-1 text (one character a byte): a UTF-8 decode
 * would stop at a NUL inside a string (TCPDF's two-byte strings).
 *
 * One reusable cursor, no object per token: `next()` moves to the next token and sets `kind`,
 * `start`, `end` and, for a string or hex string the content leaves open, `unclosed` (what closes
 * it). What no reader takes as a token (a stray `)`, `>`, `{` or `}`) is skipped.
 */

export type ContentTokenKind =
  /** An integer or real: its digits only, as Poppler reads them ("1e2" is 1, then the word e2). */
  | "number"
  | "name"
  /** A literal `( … )` or hex `< … >` string. */
  | "string"
  /** An operator, or one of the object keywords `true`, `false`, `null` (see `isObjectKeyword`). */
  | "word"
  | "["
  | "]"
  | "<<"
  | ">>"
  /** The data of an inline image (`imageData()`). */
  | "image-data";

/** White space of PDF syntax (§7.2.2). */
const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
/** Delimiters of PDF syntax (§7.2.2): with white space, what ends a name, number or word. */
const DELIMITERS = new Set([..."()<>[]{}/%"].map((c) => c.charCodeAt(0)));
const NUMBER_START = /[0-9+\-.]/;
const NUMBER = /^[+-]*\d*\.?\d*/;
/** Where the data of an inline image ends: white space, then `EI`, then white space or the end. */
const IMAGE_END = /[\0\t\n\f\r ]EI(?=[\0\t\n\f\r ]|$)/g;

const isRegular = (c: number) => !WHITE.has(c) && !DELIMITERS.has(c);

/** Keywords of PDF syntax that are objects (operands), not operators. */
export const isObjectKeyword = (word: string) => word === "true" || word === "false" || word === "null";

export class ContentLexer {
  kind: ContentTokenKind = "word";
  start = 0;
  end = 0;
  /** For a string the content ends inside: what would close it (`)` as often as it is nested, or `>`). */
  unclosed = "";

  readonly #content: string;

  constructor(content: string) {
    this.#content = content;
  }

  /** The token's text. */
  get text(): string {
    return this.#content.slice(this.start, this.end);
  }

  /** Moves to the next token; false at the end of the content. */
  next(): boolean {
    const content = this.#content;
    const n = content.length;
    let i = this.end;
    this.unclosed = "";
    while (i < n) {
      const c = content.charCodeAt(i);
      if (WHITE.has(c)) i++;
      else if (c === 0x25 /* % */) {
        while (i < n && content.charCodeAt(i) !== 0x0a && content.charCodeAt(i) !== 0x0d) i++;
      } else if (c === 0x28 /* ( */) return this.#literalString(i);
      else if (c === 0x3c /* < */) {
        if (content.charCodeAt(i + 1) === 0x3c) return this.#token("<<", i, i + 2);
        const close = content.indexOf(">", i + 1);
        if (close < 0) this.unclosed = ">";
        return this.#token("string", i, close < 0 ? n : close + 1);
      } else if (c === 0x3e /* > */ && content.charCodeAt(i + 1) === 0x3e) return this.#token(">>", i, i + 2);
      else if (c === 0x5b /* [ */) return this.#token("[", i, i + 1);
      else if (c === 0x5d /* ] */) return this.#token("]", i, i + 1);
      else if (c === 0x2f /* / */) {
        let stop = i + 1;
        while (stop < n && isRegular(content.charCodeAt(stop))) stop++;
        return this.#token("name", i, stop);
      } else if (DELIMITERS.has(c)) i++;
      else {
        let stop = i + 1;
        while (stop < n && isRegular(content.charCodeAt(stop))) stop++;
        if (NUMBER_START.test(content.charAt(i))) {
          const digits = NUMBER.exec(content.slice(i, stop))?.[0].length ?? 0;
          return this.#token("number", i, i + Math.max(1, digits));
        }
        return this.#token("word", i, stop);
      }
    }
    this.start = this.end = n;
    return false;
  }

  /**
   * After an `ID` operator (an inline image's, outside arrays and dictionaries, as the reader of
   * operators sees it): moves to the image's data, which starts after one white-space character and
   * may hold any byte; the next token is its `EI`.
   */
  imageData(): void {
    const n = this.#content.length;
    const from = Math.min(n, this.end + 1);
    IMAGE_END.lastIndex = from;
    const found = IMAGE_END.exec(this.#content);
    this.#token("image-data", from, found === null ? n : found.index);
  }

  #token(kind: ContentTokenKind, start: number, end: number): true {
    this.kind = kind;
    this.start = start;
    this.end = end;
    return true;
  }

  /** The literal string opening at `start`: balanced parentheses, `\` escaping the next byte. */
  #literalString(start: number): true {
    const content = this.#content;
    let nesting = 1;
    let i = start + 1;
    for (; i < content.length && nesting > 0; i++) {
      const c = content.charCodeAt(i);
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x28) nesting++;
      else if (c === 0x29) nesting--;
    }
    this.#token("string", start, Math.min(i, content.length));
    if (nesting > 0) this.unclosed = ")".repeat(nesting);
    return true;
  }
}
