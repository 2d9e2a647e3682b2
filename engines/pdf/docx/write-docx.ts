/**
 * The document model written as DOCX with the `docx` package: one section per run of pages of
 * the same size (page size and margins from the PDF), a page break before each page's first block,
 * headings in Word's Heading styles (so the navigation pane lists them), runs with font, size,
 * weight, slant, underline and colour, lists as Word numbering, ruled tables as Word tables with
 * their column widths and merged cells, and pictures at their size. A new section also starts where
 * the printed page numbers start again or change style (roman, then arabic).
 */
import {
  AlignmentType,
  Document,
  Paragraph as DocxParagraph,
  Table as DocxTable,
  TableCell as DocxTableCell,
  Footer,
  Header,
  HeadingLevel,
  ImageRun,
  type ISectionOptions,
  NumberFormat,
  Packer,
  PageNumber,
  ShadingType,
  TableLayoutType,
  TableRow,
  TextRun,
  WidthType,
} from "docx";
import { OCR_FONT_NAME } from "../../ocr/text-layer.ts";
import { rightToLeft } from "../structured-text.ts";
import type {
  Block,
  DocumentModel,
  NumberStyle,
  PageModel,
  Paragraph,
  Picture,
  Run,
  Table,
} from "./model.ts";
import { ListNumbering } from "./word-lists.ts";

const TWIPS = 20;
const PIXELS = 96 / 72;
/** Margins are kept between these (points): a header needs room, a bleed has none. */
const MIN_MARGIN = 18;
const MAX_MARGIN = 108;

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

const NUMBER_FORMATS: Record<NumberStyle, (typeof NumberFormat)[keyof typeof NumberFormat]> = {
  decimal: NumberFormat.DECIMAL,
  "lower-roman": NumberFormat.LOWER_ROMAN,
  "upper-roman": NumberFormat.UPPER_ROMAN,
};

export async function writeDocx(model: DocumentModel): Promise<Uint8Array> {
  const lists = new ListNumbering();
  const sections: ISectionOptions[] = [];
  for (const { pages: group, numbering } of sectionRuns(model)) {
    const children: (DocxParagraph | DocxTable)[] = [];
    group.forEach((page, i) => {
      // Each page after the first starts on a new page: its first paragraph breaks before it.
      const breakFirst = i > 0 && page.blocks[0]?.type === "paragraph";
      if (i > 0 && !breakFirst)
        children.push(new DocxParagraph({ pageBreakBefore: true, spacing: { after: 0 } }));
      page.blocks.forEach((block, b) => {
        children.push(...blockOf(block, lists, breakFirst && b === 0));
      });
    });
    if (children.length === 0) children.push(new DocxParagraph({}));
    sections.push({
      properties: {
        page: {
          ...pageProperties(group),
          pageNumbers: {
            ...(numbering.start === undefined ? {} : { start: numbering.start }),
            formatType: NUMBER_FORMATS[numbering.style],
          },
        },
      },
      ...(model.header.length > 0
        ? { headers: { default: new Header({ children: model.header.map((p) => paragraphOf(p, lists)) }) } }
        : {}),
      ...(model.footer.length > 0
        ? { footers: { default: new Footer({ children: model.footer.map((p) => paragraphOf(p, lists)) }) } }
        : {}),
      children,
    });
  }
  const document = new Document({
    creator: "PDF to Word",
    numbering: { config: lists.definitions() },
    styles: { paragraphStyles: [] },
    sections,
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

interface SectionRun {
  readonly pages: PageModel[];
  /** Where Word's page numbers start again (undefined: they go on) and their style. */
  numbering: { readonly start?: number; readonly style: NumberStyle };
}

/**
 * Sections of pages of one size, each numbered as the PDF prints them: a new section starts where
 * the page size changes, or where a printed page number is not the one counting on from the last
 * would give (numbering started again, or changed from roman to arabic). The first section is
 * numbered so that its first printed number falls on its page.
 */
function sectionRuns(model: DocumentModel): SectionRun[] {
  const printed = model.printed ?? [];
  const runs: SectionRun[] = [];
  // The number the page would show if the numbering went on (null before the first printed one).
  let expected: { value: number; style: NumberStyle } | null = null;
  model.pages.forEach((page, i) => {
    const last = runs.at(-1);
    const number = printed[i];
    const sameSize =
      last !== undefined &&
      Math.abs((last.pages[0]?.width ?? 0) - page.width) < 1 &&
      Math.abs((last.pages[0]?.height ?? 0) - page.height) < 1;
    const firstStart = number === undefined || last === undefined ? -1 : number.value - last.pages.length;
    if (last === undefined || !sameSize) {
      const style = number?.style ?? expected?.style ?? "decimal";
      runs.push({
        pages: [page],
        numbering: number === undefined ? { style } : { start: number.value, style },
      });
    } else if (number !== undefined && expected === null && runs.length === 1 && firstStart >= 0) {
      last.pages.push(page);
      last.numbering = { start: firstStart, style: number.style };
    } else if (
      number !== undefined &&
      (expected === null || number.value !== expected.value || number.style !== expected.style)
    ) {
      runs.push({ pages: [page], numbering: { start: number.value, style: number.style } });
    } else {
      last.pages.push(page);
    }
    const shown = number ?? expected;
    expected = shown === null ? null : { value: shown.value + 1, style: shown.style };
  });
  return runs;
}

function pageProperties(pages: readonly PageModel[]) {
  const first = pages[0] as PageModel;
  const clamp = (value: number) => Math.round(Math.min(MAX_MARGIN, Math.max(MIN_MARGIN, value)) * TWIPS);
  const contents = pages.flatMap((page) => (page.content ? [page.content] : []));
  const margin = (pick: (page: PageModel, box: readonly number[]) => number, fallback: number) =>
    contents.length === 0
      ? fallback
      : Math.min(...pages.filter((p) => p.content).map((p) => pick(p, p.content ?? [])));
  return {
    size: { width: Math.round(first.width * TWIPS), height: Math.round(first.height * TWIPS) },
    margin: {
      top: clamp(margin((_p, box) => box[1] ?? 72, 72)),
      left: clamp(margin((_p, box) => box[0] ?? 72, 72)),
      right: clamp(margin((p, box) => p.width - (box[2] ?? 0), 72)),
      bottom: clamp(margin((p, box) => p.height - (box[3] ?? 0), 72)),
      header: Math.round(MIN_MARGIN * TWIPS),
      footer: Math.round(MIN_MARGIN * TWIPS),
    },
  };
}

function blockOf(block: Block, lists: ListNumbering, pageBreak = false): (DocxParagraph | DocxTable)[] {
  if (block.type !== "paragraph" || block.list === null) lists.end();
  if (block.type === "paragraph") return [paragraphOf(block, lists, pageBreak)];
  if (block.type === "image") return [pictureOf(block)];
  return [tableOf(block, lists)];
}

function paragraphOf(paragraph: Paragraph, lists: ListNumbering, pageBreak = false): DocxParagraph {
  const heading = paragraph.heading > 0 ? HEADINGS[Math.min(paragraph.heading, 6) - 1] : undefined;
  const list = paragraph.list;
  // Arabic or Hebrew: Word lays the paragraph out from the right and reorders its runs itself.
  const rtl = rightToLeft(paragraph.runs.map((run) => run.text).join(""));
  return new DocxParagraph({
    children: paragraph.runs.map(textRunOf),
    ...(rtl ? { bidirectional: true } : {}),
    ...(heading ? { heading } : {}),
    ...(list ? { numbering: lists.numberingOf(list) } : {}),
    ...(!list && !rtl && paragraph.indent > 4
      ? { indent: { left: Math.round(paragraph.indent * TWIPS) } }
      : {}),
    // On the page's side: docx writes a right-to-left paragraph's "right" as its start ("left").
    alignment: ALIGNMENTS[paragraph.alignment],
    spacing: { after: 120 },
    ...(pageBreak ? { pageBreakBefore: true } : {}),
  });
}

const ALIGNMENTS = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justified: AlignmentType.JUSTIFIED,
} as const;

function textRunOf(run: Run): TextRun {
  const style = {
    bold: run.bold,
    italics: run.italic,
    size: Math.max(2, Math.round(run.size * 2)),
    // Recognised text has no typeface of its own: Word's default font shows it.
    ...(run.font === OCR_FONT_NAME ? {} : { font: familyOf(run.font) }),
    ...(run.underline ? { underline: {} } : {}),
    ...(run.color !== "000000" ? { color: run.color } : {}),
    ...(rightToLeft(run.text) ? { rightToLeft: true } : {}),
    ...(run.script === "super" ? { superScript: true } : run.script === "sub" ? { subScript: true } : {}),
  };
  if (run.pageNumber) return new TextRun({ ...style, children: [PageNumber.CURRENT] });
  return new TextRun({ ...style, text: run.text });
}

/** A Word font family for a PDF font name: the standard families by their usual names. */
export function familyOf(font: string): string {
  const base = font.replace(
    /[-,](Bold|Italic|Oblique|Regular|Roman|Medium|Light|Semibold|Black|BoldItalic|BoldOblique|It|BoldIt|MT|PS)+$/i,
    "",
  );
  if (/^(Times|NimbusRom|TimesNewRoman|Tinos|LiberationSerif)/i.test(base)) return "Times New Roman";
  if (/^(Helvetica|Arial|NimbusSans|LiberationSans|Arimo)/i.test(base)) return "Arial";
  if (/^(Courier|NimbusMono|LiberationMono|Cousine)/i.test(base)) return "Courier New";
  return base
    .replace(/(MT|PS|Std|Pro)$/g, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim();
}

function pictureOf(picture: Picture): DocxParagraph {
  const width = Math.max(1, Math.round((picture.box[2] - picture.box[0]) * PIXELS));
  const height = Math.max(1, Math.round((picture.box[3] - picture.box[1]) * PIXELS));
  return new DocxParagraph({
    children: [new ImageRun({ type: picture.format, data: picture.data, transformation: { width, height } })],
  });
}

function tableOf(table: Table, lists: ListNumbering): DocxTable {
  // A table of Arabic or Hebrew starts at the right: Word lays it out from the right
  // (bidiVisual), so its first column is the page's rightmost.
  const rtl = rightToLeft(
    table.cells
      .flat()
      .flatMap((cell) => cell.paragraphs.flatMap((p) => p.runs.map((run) => run.text)))
      .join(""),
  );
  const count = table.columns.length;
  const cellRows = rtl
    ? table.cells.map((cells) =>
        cells
          .map((cell) => ({ ...cell, column: count - cell.column - cell.columnSpan }))
          .sort((a, b) => a.column - b.column),
      )
    : table.cells;
  const widths = (rtl ? [...table.columns].reverse() : table.columns).map((w) =>
    Math.max(1, Math.round(w * TWIPS)),
  );
  const rows = cellRows.map(
    (cells, r) =>
      new TableRow({
        height: { value: Math.round((table.rows[r] ?? 12) * TWIPS), rule: "atLeast" },
        children: cells.map((cell) => {
          const width = widths.slice(cell.column, cell.column + cell.columnSpan).reduce((a, b) => a + b, 0);
          const children = cell.paragraphs.map((p) => paragraphOf(p, lists));
          return new DocxTableCell({
            children: children.length > 0 ? children : [new DocxParagraph({})],
            width: { size: width, type: WidthType.DXA },
            ...(cell.columnSpan > 1 ? { columnSpan: cell.columnSpan } : {}),
            ...(cell.rowSpan > 1 ? { rowSpan: cell.rowSpan } : {}),
            ...(cell.fill ? { shading: { fill: cell.fill, type: ShadingType.CLEAR, color: "auto" } } : {}),
          });
        }),
      }),
  );
  return new DocxTable({
    rows,
    columnWidths: widths,
    width: { size: widths.reduce((a, b) => a + b, 0), type: WidthType.DXA },
    layout: TableLayoutType.FIXED,
    ...(rtl ? { visuallyRightToLeft: true } : {}),
  });
}
