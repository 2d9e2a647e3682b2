/**
 * The document model PDF to Word builds from a PDF's structured text and then writes as DOCX:
 * pages of blocks in reading order (paragraphs of styled runs, tables, images), plus the running
 * header and footer found on most pages.
 */
import type { Box, TextSpan } from "../structured-text.ts";

/** A piece of text of one style. */
export interface Run {
  readonly text: string;
  readonly font: string;
  readonly size: number;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly underline: boolean;
  readonly color: string;
  /** Raised and smaller than its line (a footnote mark, an exponent), or lowered (a chemical index). */
  readonly script?: "super" | "sub";
  /** The run shows the current page number (a PAGE field in Word). */
  readonly pageNumber?: boolean;
}

/** One visual line: the spans of MuPDF lines sharing a baseline, left to right. */
export interface Line {
  readonly box: Box;
  readonly baseline: number;
  readonly spans: readonly TextSpan[];
  readonly text: string;
  /** The size most of its characters have. */
  readonly size: number;
}

export type NumberStyle = "decimal" | "lower-roman" | "upper-roman";

export type ListKind = "bullet" | "decimal" | "lower-letter" | "upper-letter" | "lower-roman" | "upper-roman";

export interface ListMark {
  readonly kind: ListKind;
  /** The item's number (1 for bullets). */
  readonly number: number;
  /** Nesting level from the indentation, 0 outermost. */
  readonly level: number;
  /** The marker as printed ("•", "3.", "b)"). */
  readonly marker: string;
}

export interface Paragraph {
  readonly type: "paragraph";
  readonly box: Box;
  runs: readonly Run[];
  readonly lines: number;
  /** Heading level 1–6, or 0 for body text. */
  heading: number;
  list: ListMark | null;
  /** Left indentation from the text column's left edge, points. */
  readonly indent: number;
  readonly alignment: "left" | "center" | "right" | "justified";
}

export interface TableCell {
  readonly paragraphs: readonly Paragraph[];
  readonly columnSpan: number;
  readonly rowSpan: number;
  readonly fill: string | null;
}

export interface Table {
  readonly type: "table";
  readonly box: Box;
  /** Widths of the grid columns, points. */
  readonly columns: readonly number[];
  /** Heights of the rows, points. */
  readonly rows: readonly number[];
  /** Per row, the cells that start in it (cells covered by a row span above are left out). */
  readonly cells: readonly (readonly (TableCell & { readonly column: number })[])[];
}

export interface Picture {
  readonly type: "image";
  readonly box: Box;
  readonly data: Uint8Array;
  readonly format: "png" | "jpg";
}

export type Block = Paragraph | Table | Picture;

export interface PageModel {
  readonly index: number;
  readonly width: number;
  readonly height: number;
  /** Extent of the page's content, for the margins. */
  readonly content: Box | null;
  readonly blocks: Block[];
  /** The page has images but no text (a scan). */
  readonly scanned: boolean;
}

export interface DocumentModel {
  readonly pages: readonly PageModel[];
  readonly header: readonly Paragraph[];
  readonly footer: readonly Paragraph[];
  /** Per page, the page number its running head prints, where one does. */
  readonly printed?: readonly ({ readonly value: number; readonly style: NumberStyle } | undefined)[];
}

export function runOf(span: TextSpan, text = span.text): Run {
  return {
    text,
    font: span.font,
    size: span.size,
    bold: span.bold,
    italic: span.italic,
    underline: span.underline,
    color: span.color,
  };
}
