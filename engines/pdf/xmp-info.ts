import type * as mupdf from "mupdf";

/**
 * XMP properties that mirror a key of the document information dictionary (ISO 32000-1, 14.3.3
 * and table 317), with how their values compare.
 */
const MIRRORS: Record<string, { key: string; kind: "text" | "date" }> = {
  "dc:title": { key: "Title", kind: "text" },
  "dc:creator": { key: "Author", kind: "text" },
  "dc:description": { key: "Subject", kind: "text" },
  "pdf:Keywords": { key: "Keywords", kind: "text" },
  "xmp:CreatorTool": { key: "Creator", kind: "text" },
  "pdf:Producer": { key: "Producer", kind: "text" },
  "xmp:CreateDate": { key: "CreationDate", kind: "date" },
  "xmp:ModifyDate": { key: "ModDate", kind: "date" },
  "pdf:Trapped": { key: "Trapped", kind: "text" },
};

/**
 * Properties that describe the packet or the saved file rather than the document: its format,
 * when the metadata was written, and the identifiers of the file and of this save of it (an XMP
 * writer makes a new InstanceID at every save; Ghostscript writes new identifiers too).
 */
const HOUSEKEEPING = new Set([
  "dc:format",
  "xmp:MetadataDate",
  "xmpMM:DocumentID",
  "xmpMM:InstanceID",
  "xmpMM:VersionID",
  "xmpMM:RenditionClass",
  "xmpMM:OriginalDocumentID",
]);

/** Markup the reader below does not take apart: the packet is then kept. */
const UNREAD_MARKUP = /<!\[CDATA\[|<!--|<!DOCTYPE|<!ENTITY/;
/** One tag: closing slash, name, attributes, self-closing slash. */
const TAG = /<(\/?)([\w.:-]+)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/**
 * Whether the XMP packet in `metadata` says nothing the information dictionary `info` does not:
 * every property of every rdf:Description is either one that mirrors an /Info key holding the same
 * value (text compared as written, dates as instants) or packet housekeeping (see HOUSEKEEPING).
 * Any other property (a PDF/A, PDF/UA or PDF/X claim, rights, a custom schema), a property /Info
 * lacks or holds differently, markup this reader does not take apart, or a packet that does not
 * read as UTF-8 keeps it.
 */
export function xmpRepeatsInfo(metadata: mupdf.PDFObject, info: mupdf.PDFObject): boolean {
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      metadata.readStream().asUint8Array(),
    );
  } catch {
    return false;
  }
  if (UNREAD_MARKUP.test(xml)) return false;
  const properties = xmpProperties(xml);
  if (properties === null || properties.size === 0) return false;
  for (const [name, value] of properties) {
    if (HOUSEKEEPING.has(name)) continue;
    const mirror = MIRRORS[name];
    if (mirror === undefined || !info.isDictionary()) return false;
    const held = info.get(mirror.key);
    const heldText = held.isString() ? held.asString() : held.isName() ? held.asName() : null;
    if (heldText === null || !sameValue(mirror.kind, value, heldText)) return false;
  }
  return true;
}

/**
 * The top-level properties of the packet's rdf:Description elements (name → text, the values of
 * an rdf:Alt, Seq or Bag joined by "; " as /Info writes several authors), or null when the tags do
 * not nest or a property occurs twice.
 */
function xmpProperties(xml: string): Map<string, string> | null {
  const properties = new Map<string, string>();
  const open: { name: string; textFrom: number; items: string[] }[] = [];
  let descriptions = 0;
  let depthOfDescription = -1;
  const add = (name: string, value: string) => {
    if (properties.has(name)) return false;
    properties.set(name, value);
    return true;
  };
  for (const match of xml.matchAll(TAG)) {
    const [, closing, name = "", attributes = "", selfClosing] = match;
    const at = match.index ?? 0;
    if (closing === "") {
      if (name === "rdf:Description") {
        if (depthOfDescription !== -1) return null;
        descriptions++;
        depthOfDescription = open.length;
        for (const [, key = "", double, single] of attributes.matchAll(ATTRIBUTE)) {
          if (key.startsWith("xmlns:") || key === "rdf:about" || key === "xmlns") continue;
          if (!add(key, xmlText(double ?? single ?? ""))) return null;
        }
      } else if (depthOfDescription !== -1 && open.length === depthOfDescription + 1 && selfClosing !== "") {
        // A property written as an empty element (or with rdf:resource): not text /Info holds.
        return null;
      }
      if (selfClosing === "") open.push({ name, textFrom: at + match[0].length, items: [] });
      continue;
    }
    const element = open.pop();
    if (element === undefined || element.name !== name) return null;
    const text = xmlText(xml.slice(element.textFrom, at));
    if (name === "rdf:li") open.at(-1)?.items.push(text.trim());
    if (name === "rdf:Description") depthOfDescription = -1;
    else if (depthOfDescription !== -1 && open.length === depthOfDescription + 1) {
      const items = collectItems(element);
      if (!add(name, items ?? text.trim())) return null;
    } else if (open.length > 0 && element.items.length > 0) open.at(-1)?.items.push(...element.items);
  }
  return open.length === 0 && descriptions > 0 ? properties : null;
}

/** The list items an element gathered (from its rdf:Alt, Seq or Bag), or null for plain text. */
function collectItems(element: { items: string[] }): string | null {
  return element.items.length === 0 ? null : element.items.join("; ");
}

function xmlText(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, digits: string) => String.fromCodePoint(Number.parseInt(digits, 10)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function sameValue(kind: "text" | "date", xmp: string, info: string): boolean {
  if (kind === "text") return xmp === info.trim();
  const a = xmpDate(xmp);
  const b = pdfDate(info);
  return a !== null && a === b;
}

/** An XMP date (ISO 8601: 2025-03-10T11:03:54+01:00) as milliseconds, or null. */
function xmpDate(text: string): number | null {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?(?:\.\d+)?(Z|([+-])(\d\d):(\d\d))$/.exec(
    text,
  );
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = "0", zone, sign, zh = "0", zm = "0"] = match;
  return instant([y, mo, d, h, mi, s].map(Number), zone === "Z" ? 0 : offset(sign, zh, zm));
}

/** A PDF date (D:20250310110354+01'00') as milliseconds, or null; a date without a zone does not compare. */
function pdfDate(text: string): number | null {
  const match = /^D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?(Z(?:00'?00'?)?|([+-])(\d\d)'?(\d\d)'?)$/.exec(
    text.trim(),
  );
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = "0", zone, sign, zh = "0", zm = "0"] = match;
  return instant([y, mo, d, h, mi, s].map(Number), zone?.startsWith("Z") ? 0 : offset(sign, zh, zm));
}

function offset(sign: string | undefined, hours: string, minutes: string): number {
  return (sign === "-" ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

function instant(parts: number[], zoneMinutes: number): number {
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = parts;
  return Date.UTC(y, mo - 1, d, h, mi, s) - zoneMinutes * 60_000;
}
