/**
 * A pull-based multipart/form-data reader (RFC 7578) over a Web ReadableStream. Nothing is read
 * from the source until the consumer asks for the next part or the next body chunk, so a slow
 * consumer (an R2 upload) slows the client down instead of filling memory. At most one source
 * chunk plus a boundary's length is held at a time, and part headers are capped.
 */
import { type ByteReader, byteReader, LARGE_READ_BYTES } from "../../contract/index.ts";
import { drainReader } from "./drain.ts";

export class MultipartError extends Error {
  override readonly name = "MultipartError";
}

export interface PartHead {
  /** The form field name (`name` parameter of Content-Disposition). */
  readonly name: string | undefined;
  /** Present (possibly empty) for file parts. */
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
}

export interface MultipartReaderOptions {
  /** Largest header block of one part, CRLFs included. */
  readonly maxHeaderBytes: number;
  /** A read (of up to 64 KB) that waits longer fails with StalledStreamError (byteReader). */
  readonly idleMs?: number;
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** The boundary parameter of a multipart/form-data Content-Type, or null. */
export function boundaryOf(contentType: string): string | null {
  const [type, ...params] = contentType.split(";");
  if (type?.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters.
    return value.length >= 1 && value.length <= 70 ? value : null;
  }
  return null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (
    let i = haystack.indexOf(first ?? 0, from);
    i >= 0 && i <= last;
    i = haystack.indexOf(first ?? 0, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Parameters of a Content-Disposition value; quoted strings may hold `;` and backslash escapes. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = (match[1] ?? "").toLowerCase();
    const raw = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : (match[3] ?? "").trim();
    if (!params.has(key)) params.set(key, raw);
  }
  return params;
}

function parseHead(block: string): PartHead {
  let disposition = "";
  let contentType: string | undefined;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError("Malformed part header");
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-disposition") disposition = value;
    else if (key === "content-type") contentType = value;
  }
  if (!/^form-data\s*(;|$)/i.test(disposition)) {
    return { name: undefined, filename: undefined, contentType };
  }
  const params = dispositionParams(disposition);
  return { name: params.get("name"), filename: params.get("filename"), contentType };
}

type State = "preamble" | "head" | "body" | "done";

export class MultipartReader {
  readonly #source: ByteReader;
  /** CRLF + "--" + boundary: every delimiter, the first one included (a CRLF is prepended). */
  readonly #delimiter: Uint8Array;
  readonly #maxHeaderBytes: number;
  #buffer: Uint8Array = new Uint8Array([CR, LF]);
  #sourceDone = false;
  #state: State = "preamble";

  constructor(body: ReadableStream<Uint8Array>, boundary: string, options: MultipartReaderOptions) {
    this.#source = byteReader(body, options.idleMs === undefined ? {} : { idleMs: options.idleMs });
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
    this.#maxHeaderBytes = options.maxHeaderBytes;
  }

  /**
   * Pulls more of the source into the buffer, in large reads where the runtime gathers them (an
   * upload arrives whole, so waiting for a full read costs nothing); false at the end of the source.
   */
  async #fill(): Promise<boolean> {
    if (this.#sourceDone) return false;
    const value = await this.#source.read(LARGE_READ_BYTES);
    if (value === null) {
      this.#sourceDone = true;
      return false;
    }
    this.#buffer = concat(this.#buffer, value);
    return true;
  }

  /** Ensures `count` bytes are buffered; false when the source ends first. */
  async #need(count: number): Promise<boolean> {
    while (this.#buffer.length < count) if (!(await this.#fill())) return false;
    return true;
  }

  /** Consumes up to and including the next delimiter, discarding what precedes it. */
  async #skipToDelimiter(): Promise<void> {
    for (;;) {
      const at = indexOf(this.#buffer, this.#delimiter);
      if (at >= 0) {
        this.#buffer = this.#buffer.subarray(at + this.#delimiter.length);
        return;
      }
      this.#buffer = this.#buffer.subarray(Math.max(0, this.#buffer.length - this.#delimiter.length + 1));
      if (!(await this.#fill())) throw new MultipartError("The body ends before its closing boundary");
    }
  }

  /** After a delimiter: "--" closes the body, otherwise optional whitespace then CRLF opens a part. */
  async #afterDelimiter(): Promise<boolean> {
    if (!(await this.#need(2))) throw new MultipartError("The body ends after a boundary");
    if (this.#buffer[0] === DASH && this.#buffer[1] === DASH) {
      this.#buffer = EMPTY;
      this.#state = "done";
      return false;
    }
    for (let at = 0; ; at++) {
      if (!(await this.#need(at + 2))) throw new MultipartError("The body ends after a boundary");
      const byte = this.#buffer[at];
      if (byte === CR && this.#buffer[at + 1] === LF) {
        this.#buffer = this.#buffer.subarray(at + 2);
        return true;
      }
      if ((byte !== 0x20 && byte !== 0x09) || at > 64) throw new MultipartError("Malformed boundary line");
    }
  }

  async #readHead(): Promise<PartHead> {
    const end = encoder.encode("\r\n\r\n");
    // A part without headers starts directly with the blank line.
    if (!(await this.#need(2))) throw new MultipartError("The body ends inside part headers");
    if (this.#buffer[0] === CR && this.#buffer[1] === LF) {
      this.#buffer = this.#buffer.subarray(2);
      return { name: undefined, filename: undefined, contentType: undefined };
    }
    for (;;) {
      const at = indexOf(this.#buffer, end);
      if (at >= 0) {
        if (at + end.length > this.#maxHeaderBytes) throw new MultipartError("Part headers are too large");
        const block = new TextDecoder().decode(this.#buffer.subarray(0, at));
        this.#buffer = this.#buffer.subarray(at + end.length);
        return parseHead(block);
      }
      if (this.#buffer.length > this.#maxHeaderBytes) throw new MultipartError("Part headers are too large");
      if (!(await this.#fill())) throw new MultipartError("The body ends inside part headers");
    }
  }

  /**
   * The next part's headers, or null after the closing boundary. The previous part's unread body
   * is skipped (read and discarded).
   */
  async nextPart(): Promise<PartHead | null> {
    if (this.#state === "done") return null;
    if (this.#state === "body") while ((await this.read()) !== null);
    if (this.#state === "preamble") await this.#skipToDelimiter();
    if (!(await this.#afterDelimiter())) return null;
    const head = await this.#readHead();
    this.#state = "body";
    return head;
  }

  /** The next chunk of the current part's body, or null at its end. */
  async read(): Promise<Uint8Array | null> {
    if (this.#state !== "body") return null;
    const keep = this.#delimiter.length - 1;
    for (;;) {
      const at = indexOf(this.#buffer, this.#delimiter);
      if (at >= 0) {
        const chunk = this.#buffer.subarray(0, at);
        this.#buffer = this.#buffer.subarray(at + this.#delimiter.length);
        this.#state = "head";
        // A non-empty last chunk is returned now; the following call reports the end.
        return chunk.length > 0 ? chunk : null;
      }
      // Bytes that cannot start a delimiter are safe to hand out.
      const safe = this.#buffer.length - keep;
      if (safe > 0) {
        const chunk = this.#buffer.subarray(0, safe);
        this.#buffer = this.#buffer.subarray(safe);
        return chunk;
      }
      if (!(await this.#fill())) throw new MultipartError("The body ends inside a part");
    }
  }

  /**
   * Reads and discards what is left of the body (bounded, see drain.ts), so that a refusal does not
   * leave unread bytes on the connection. True when the body was read to its end.
   */
  async drain(maxBytes: number): Promise<boolean> {
    this.#buffer = EMPTY;
    this.#state = "done";
    if (this.#sourceDone) return true;
    this.#sourceDone = await drainReader(this.#source, maxBytes);
    return this.#sourceDone;
  }
}
