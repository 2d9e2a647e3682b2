/**
 * Reads back what a DOCX holds, straight from its XML parts (unzipped with fflate): paragraphs with
 * their style, list numbering (and the list labels Word shows for them), page breaks and runs;
 * tables as grids of cell texts; headers, footers and media files. Tests and benches check PDF to Word's output with it.
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
  /** `superscript` or `subscript` when the run is raised or lowered. */
  readonly script: string | null;
  readonly pageField: boolean;
}

export interface DocxParagraph {
  readonly style: string | null;
  readonly numbered: boolean;
  /** The page numbering of the section this paragraph ends (its `w:sectPr`), or null. */
  readonly sectionEnd: PageNumbering | null;
  /** The list the paragraph is an item of (`w:numId`) and its level, when numbered. */
  readonly list: { readonly id: string; readonly level: number } | null;
  readonly pageBreakBefore: boolean;
  readonly runs: readonly DocxRun[];
  readonly text: string;
}

/** A section's page numbers: where they start again (null: they go on) and their format. */
export interface PageNumbering {
  readonly start: number | null;
  /** `w:fmt` ("decimal", "lowerRoman", …). */
  readonly format: string;
}

/** The page numbering of a `w:sectPr`. */
export function pageNumbering(sectPr: string): PageNumbering {
  const type = /<w:pgNumType([^>]*)\/>/.exec(sectPr)?.[1] ?? "";
  const start = /w:start="(\d+)"/.exec(type)?.[1];
  return {
    start: start === undefined ? null : Number(start),
    format: /w:fmt="(\w+)"/.exec(type)?.[1] ?? "decimal",
  };
}

/** The numbering of the document's last section (the body's own `w:sectPr`). */
export function lastSectionNumbering(document: string): PageNumbering {
  const body = document.slice(document.lastIndexOf("</w:p>"));
  return pageNumbering(/<w:sectPr[\s\S]*?<\/w:sectPr>/.exec(body)?.[0] ?? "");
}

export interface DocxParts {
  readonly document: string;
  /** word/numbering.xml ("" when there is none). */
  readonly numbering: string;
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
    numbering: text("word/numbering.xml"),
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
    script: /<w:vertAlign w:val="(\w+)"/.exec(properties)?.[1] ?? null,
    pageField: /PAGE/.test(xml) && /w:instrText|w:fldSimple|w:fldChar/.test(xml),
  };
}

/** Every paragraph of the part, in tables too, in document order. */
export function paragraphsOf(xml: string): DocxParagraph[] {
  return [...xml.matchAll(PARAGRAPH)].map((match) => {
    const body = match[1] ?? "";
    const properties = /<w:pPr>([\s\S]*?)<\/w:pPr>/.exec(body)?.[1] ?? "";
    const runs = [...body.matchAll(RUN)].map((run) => runOf(run[1] ?? ""));
    const id = /<w:numId w:val="(\d+)"/.exec(properties)?.[1];
    const sectPr = /<w:sectPr[\s\S]*?<\/w:sectPr>/.exec(properties)?.[0];
    return {
      style: /<w:pStyle w:val="([^"]+)"/.exec(properties)?.[1] ?? null,
      sectionEnd: sectPr === undefined ? null : pageNumbering(sectPr),
      numbered: /<w:numPr>/.test(properties),
      list:
        id === undefined || id === "0"
          ? null
          : { id, level: Number(/<w:ilvl w:val="(\d+)"/.exec(properties)?.[1] ?? 0) },
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

/**
 * The label Word shows before each paragraph ("" for none): list items numbered as Word counts
 * them (each list's levels from their start, deeper levels starting again after a higher item),
 * in the level's format and text ("%1.", "(%1)"); bullets as their character.
 */
export function listLabels(paragraphs: readonly DocxParagraph[], numbering: string): string[] {
  const abstracts = new Map<string, Map<number, { start: number; format: string; text: string }>>();
  for (const match of numbering.matchAll(
    /<w:abstractNum [^>]*w:abstractNumId="(\d+)"[^>]*>([\s\S]*?)<\/w:abstractNum>/g,
  )) {
    const levels = new Map<number, { start: number; format: string; text: string }>();
    for (const level of (match[2] ?? "").matchAll(/<w:lvl [^>]*w:ilvl="(\d+)"[^>]*>([\s\S]*?)<\/w:lvl>/g)) {
      const xml = level[2] ?? "";
      levels.set(Number(level[1]), {
        start: Number(/<w:start w:val="(\d+)"/.exec(xml)?.[1] ?? 1),
        format: /<w:numFmt w:val="(\w+)"/.exec(xml)?.[1] ?? "decimal",
        text: decodeEntities(/<w:lvlText w:val="([^"]*)"/.exec(xml)?.[1] ?? ""),
      });
    }
    abstracts.set(match[1] ?? "", levels);
  }
  const lists = new Map<string, { abstract: string; starts: Map<number, number> }>();
  for (const match of numbering.matchAll(/<w:num [^>]*w:numId="(\d+)"[^>]*>([\s\S]*?)<\/w:num>/g)) {
    const xml = match[2] ?? "";
    const starts = new Map<number, number>();
    for (const override of xml.matchAll(
      /<w:lvlOverride w:ilvl="(\d+)">\s*<w:startOverride w:val="(\d+)"\/>/g,
    )) {
      starts.set(Number(override[1]), Number(override[2]));
    }
    lists.set(match[1] ?? "", { abstract: /<w:abstractNumId w:val="(\d+)"/.exec(xml)?.[1] ?? "", starts });
  }
  const counters = new Map<string, (number | undefined)[]>();
  return paragraphs.map((paragraph) => {
    if (paragraph.list === null) return "";
    const { id, level } = paragraph.list;
    const list = lists.get(id);
    const levels = abstracts.get(list?.abstract ?? "");
    if (list === undefined || levels === undefined) return "";
    const counts = counters.get(id) ?? [];
    counters.set(id, counts);
    const startOf = (l: number) => list.starts.get(l) ?? levels.get(l)?.start ?? 1;
    const current = counts[level];
    counts[level] = current === undefined ? startOf(level) : current + 1;
    counts.length = level + 1;
    const definition = levels.get(level);
    if (definition === undefined) return "";
    if (definition.format === "bullet") return definition.text;
    return definition.text.replace(/%(\d)/g, (_, n: string) => {
      const l = Number(n) - 1;
      return formatNumber(counts[l] ?? startOf(l), levels.get(l)?.format ?? "decimal");
    });
  });
}

/** A number as Word writes it in a numbering format ("decimal", "lowerRoman", "upperLetter", …). */
export function formatNumber(value: number, format: string): string {
  if (format === "lowerLetter" || format === "upperLetter") {
    const letter = String.fromCharCode(97 + ((value - 1) % 26)).repeat(Math.floor((value - 1) / 26) + 1);
    return format === "upperLetter" ? letter.toUpperCase() : letter;
  }
  if (format === "lowerRoman" || format === "upperRoman") {
    const numerals: [number, string][] = [
      [1000, "m"],
      [900, "cm"],
      [500, "d"],
      [400, "cd"],
      [100, "c"],
      [90, "xc"],
      [50, "l"],
      [40, "xl"],
      [10, "x"],
      [9, "ix"],
      [5, "v"],
      [4, "iv"],
      [1, "i"],
    ];
    let rest = value;
    let roman = "";
    for (const [amount, symbol] of numerals) {
      while (rest >= amount) {
        roman += symbol;
        rest -= amount;
      }
    }
    return format === "upperRoman" ? roman.toUpperCase() : roman;
  }
  return String(value);
}
