import type * as mupdf from "mupdf";
import { writeDeflated } from "./compress-streams.ts";
import { everyObject } from "./every-object.ts";
import { isNamed } from "./object-kinds.ts";

/** How deep actions are followed inside one object (annotation → /AA → action → /Next). */
const MAX_DEPTH = 8;
/** Where an object holds actions directly: /A, /OpenAction, /Next (one or an array), /AA (by trigger). */
const ACTION_KEYS = ["A", "OpenAction", "Next"] as const;

/**
 * The longest string a PDF 1.x reader must take (ISO 32000-1, annex C: 32,767 bytes): a longer
 * script stays a stream.
 */
const MAX_STRING = 32767;

/**
 * Stores document JavaScript compactly, the text of every script unchanged:
 * - a script stored as UTF-16 text (a byte-order mark, then two bytes a character: iText and
 *   Acrobat write it so) becomes one byte a character when every character is printable ASCII,
 *   tab or a line end. A script is a text string or stream in PDFDocEncoding or UTF-16 (ISO
 *   32000-1, 12.6.4.16), and those characters are the same single bytes in PDFDocEncoding: the
 *   script is the same, in half the bytes (a sixth less once deflated);
 * - with `asStrings` (the save writes object streams), a script held in a stream becomes a string
 *   in its action, which the save packs into an object stream: the scripts and the dictionaries
 *   around them are deflated together instead of each script on its own behind a stream's
 *   dictionary and cross-reference entry (iTextSharp's three document scripts, 7.3 KB of text:
 *   311 bytes less). Streams that stay are deflated again.
 * Actions are found as objects of their own and inside annotations, fields, the catalog and other
 * actions. Returns how many scripts were rewritten.
 */
export function compactScripts(pdf: mupdf.PDFDocument, asStrings: boolean): number {
  let narrowed = 0;
  const visit = (holder: mupdf.PDFObject, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (holder.isArray()) {
      for (let i = 0; i < holder.length; i++) {
        const item = holder.get(i);
        if (!item.isIndirect()) visit(item, depth + 1);
      }
      return;
    }
    if (!holder.isDictionary()) return;
    if (isNamed(holder.get("S"), "JavaScript")) narrowed += compactScript(pdf, holder, asStrings);
    const inner: mupdf.PDFObject[] = ACTION_KEYS.map((key) => holder.get(key));
    const triggers = holder.get("AA");
    if (triggers.isDictionary())
      triggers.forEach((action) => {
        inner.push(action);
      });
    for (const action of inner) if (!action.isIndirect()) visit(action, depth + 1);
  };
  for (const { object } of everyObject(pdf)) {
    try {
      if (object.isDictionary() && !object.isStream()) visit(object, 0);
    } catch {
      // Objects that fail to load are left alone.
    }
  }
  return narrowed;
}

/** Rewrites the /JS of one JavaScript action; returns 1 when it did. */
function compactScript(pdf: mupdf.PDFDocument, action: mupdf.PDFObject, asStrings: boolean): number {
  const script = action.get("JS");
  if (script.isStream()) {
    const text = script.readStream().asUint8Array();
    const narrow = narrowText(text);
    const kept = narrow ?? text;
    if (asStrings && kept.length <= MAX_STRING) {
      action.put("JS", pdf.newByteString(kept));
      return 1;
    }
    if (narrow === null) return 0;
    // Even when deflating gains little, the stream now decodes to the one-byte text.
    if (writeDeflated(pdf, script, narrow, 0) === 0) script.writeStream(narrow);
    return 1;
  }
  if (script.isString()) {
    const narrow = narrowText(script.asByteString());
    if (narrow === null) return 0;
    action.put("JS", pdf.newByteString(narrow));
    return 1;
  }
  return 0;
}

/** UTF-16BE text (with its byte-order mark) of printable ASCII, tabs and line ends as one byte a character; else null. */
function narrowText(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 2 || bytes[0] !== 0xfe || bytes[1] !== 0xff || bytes.length % 2 !== 0) return null;
  const narrow = new Uint8Array((bytes.length - 2) / 2);
  for (let at = 2, index = 0; at < bytes.length; at += 2, index++) {
    const high = bytes[at] ?? 0;
    const low = bytes[at + 1] ?? 0;
    const printable = (low >= 0x20 && low <= 0x7e) || low === 0x09 || low === 0x0a || low === 0x0d;
    if (high !== 0 || !printable) return null;
    narrow[index] = low;
  }
  return narrow;
}
