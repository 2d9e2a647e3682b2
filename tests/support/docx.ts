/**
 * Reads back what a DOCX holds, straight from its XML parts (unzipped with fflate): paragraphs with
 * their style, list numbering, page breaks and runs; tables as grids of cell texts; headers,
 * footers and media files. Tests and benches check PDF to Word's output with it.
 */
import { strFromU8, unzipSync } from "fflate";

export interface DocxRun {
  readonly text: string;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly color: string | null;
  /** Half-points. */
  readonly size: number | null;
  readonly pageField: boolean;
}

export interface DocxParagraph {
  readonly style: string | null;
  readonly numbered: boolean;
  readonly pageBreakBefore: boolean;
  readonly runs: readonly DocxRun[];
  readonly text: string;
}

export interface DocxParts {
  readonly document: string;
  readonly headers: readonly string[];
  readonly footers: readonly string[];
  readonly media: readonly string[];
}

export function docxParts(bytes: Uint8Array): DocxParts {
  const files = unzipSync(bytes);
  const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  const names = Object.keys(files);
  return {
    // Producers that write text boxes repeat them as VML in mc:Fallback: read each text once.
    document: text("word/document.xml").replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, ""),
    headers: names.filter((name) => /^word\/header\d*\.xml$/.test(name)).map(text),
    footers: names.filter((name) => /^word\/footer\d*\.xml$/.test(name)).map(text),
    media: names.filter((name) => name.startsWith("word/media/")),
  };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

const PARAGRAPH = /<w:p(?:\s[^>]*)?>([\s\S]*?)<\/w:p>/g;
const RUN = /<w:r(?:\s[^>]*)?>([\s\S]*?)<\/w:r>/g;

function on(properties: string, tag: string): boolean {
  const match = new RegExp(`<w:${tag}(\\s[^>]*)?/>`).exec(properties);
  return match !== null && !/w:val="(false|0|none)"/.test(match[1] ?? "");
}

function runOf(xml: string): DocxRun {
  const properties = /<w:rPr>([\s\S]*?)<\/w:rPr>/.exec(xml)?.[1] ?? "";
  const text = [...xml.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>|<w:tab\/>/g)]
    .map((match) => (match[0] === "<w:tab/>" ? "\t" : decodeEntities(match[1] ?? "")))
    .join("");
  const size = /<w:sz w:val="(\d+)"/.exec(properties)?.[1];
  return {
    text,
    bold: on(properties, "b"),
    italic: on(properties, "i"),
    underline: on(properties, "u"),
    color: /<w:color w:val="([0-9A-Fa-f]{6})"/.exec(properties)?.[1]?.toUpperCase() ?? null,
    size: size === undefined ? null : Number(size),
    pageField: /PAGE/.test(xml) && /w:instrText|w:fldSimple|w:fldChar/.test(xml),
  };
}

/** Every paragraph of the part, in tables too, in document order. */
export function paragraphsOf(xml: string): DocxParagraph[] {
  return [...xml.matchAll(PARAGRAPH)].map((match) => {
    const body = match[1] ?? "";
    const properties = /<w:pPr>([\s\S]*?)<\/w:pPr>/.exec(body)?.[1] ?? "";
    const runs = [...body.matchAll(RUN)].map((run) => runOf(run[1] ?? ""));
    return {
      style: /<w:pStyle w:val="([^"]+)"/.exec(properties)?.[1] ?? null,
      numbered: /<w:numPr>/.test(properties),
      pageBreakBefore: on(properties, "pageBreakBefore"),
      runs,
      text: runs.map((run) => run.text).join(""),
    };
  });
}

/** The text of the part: its paragraphs' texts, one a line. */
export function textOf(xml: string): string {
  return paragraphsOf(xml)
    .map((paragraph) => paragraph.text)
    .join("\n");
}

/** Each table as rows of cell texts (a cell's paragraphs joined by a line break). */
export function tablesOf(xml: string): string[][][] {
  return [...xml.matchAll(/<w:tbl>([\s\S]*?)<\/w:tbl>/g)].map((table) =>
    [...(table[1] ?? "").matchAll(/<w:tr(?:\s[^>]*)?>([\s\S]*?)<\/w:tr>/g)].map((row) =>
      [...(row[1] ?? "").matchAll(/<w:tc>([\s\S]*?)<\/w:tc>/g)].map((cell) => textOf(cell[1] ?? "")),
    ),
  );
}
