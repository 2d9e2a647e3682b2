import { declarationOf, FILE_KINDS, type ToolId } from "../contract/index.ts";

const MAX_NAME_LENGTH = 150;

/** Replaces C0 and C1 control characters (tested by code point). */
export function replaceControlCharacters(text: string, replacement: string): string {
  let result = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    result += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? replacement : char;
  }
  return result;
}

/**
 * Unicode format characters (category Cf): bidi overrides such as U+202E that make "gpj.exe" read
 * as "exe.jpg", zero-width characters and the BOM. They are invisible, so they are removed, except
 * the zero-width (non-)joiner between two letters or marks: Devanagari, Telugu and Tamil spellings
 * need it inside words (क्‍ष, conjunct forms), and there it cannot disguise anything.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;
const JOINERS = new Set(["\u200C", "\u200D"]);
const ENDS_IN_LETTER = /[\p{L}\p{M}]$/u;
const STARTS_WITH_LETTER = /^[\p{L}\p{M}]/u;

export function stripFormatCharacters(text: string): string {
  return text.replace(FORMAT_CHARACTERS, (char: string, offset: number) => {
    const inWord =
      ENDS_IN_LETTER.test(text.slice(0, offset)) && STARTS_WITH_LETTER.test(text.slice(offset + 1));
    return JOINERS.has(char) && inWord ? char : "";
  });
}

/**
 * Browsers send `"`, CR and LF of a multipart file name as %22, %0D and %0A (HTML's form-data
 * encoding) and leave every other `%` as is, so exactly these three are decoded.
 */
export function decodeFormDataName(raw: string): string {
  return raw.replace(/%(22|0d|0a)/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The display name of an uploaded file: its last path segment, without control or format characters. */
export function uploadedName(raw: string): string {
  const base = decodeFormDataName(raw).split(/[/\\]/).pop() ?? "";
  const cleaned = stripFormatCharacters(replaceControlCharacters(base, "")).trim().slice(0, 200);
  return cleaned === "" ? "file" : cleaned;
}

/** A file name safe in a header and in an R2 key: no path separators, control, format characters or quotes. */
export function safeFilename(name: string): string {
  const cleaned = replaceControlCharacters(stripFormatCharacters(name), "_")
    .replace(/[/\\"'`]/g, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "")
    .slice(0, MAX_NAME_LENGTH);
  return cleaned === "" ? "file" : cleaned;
}

function stem(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The download name of a result: the first input's name with the output kind's extension, and the
 * tool's suffix when the output has the input's type (so it never shadows the original).
 */
export function outputFilename(tool: ToolId, firstInputName: string): string {
  const { kind, suffix = "" } = declarationOf(tool).output;
  return `${stem(safeFilename(firstInputName))}${suffix}.${FILE_KINDS[kind].extensions[0]}`;
}

/** RFC 5987 value-chars: percent-encode everything outside attr-char. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name in `filename*`. */
export function contentDisposition(filename: string): string {
  const safe = safeFilename(filename);
  const ascii = safe.replace(/[^\x20-\x7e]|[%;]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(safe)}`;
}
