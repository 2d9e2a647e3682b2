/**
 * PDF to Word (tools/pdf-to-word): an editable DOCX from the PDF's structured text. Two passes
 * over the pages keep memory to one page's characters at a time: the first reads the lines near
 * the page edges (running headers and footers) and whether Indic text is in visual order; the
 * second lays out each page (tables, columns, paragraphs, lists, pictures) into a small document
 * model; headings are then ranked over the whole document and the model is written as DOCX.
 * With `ocr`, pages without text are first recognised (engines/ocr/ocr-pdf.ts, each page's script
 * detected) and their scans give way to the recognised paragraphs. Without it, a PDF with no text
 * at all (scanned pages) is refused with PDF_NO_TEXT, and scanned pages among text pages come out
 * as their pictures.
 *
 * Pages whose text cannot be read (fonts without a usable Unicode mapping: "����") are counted in
 * the facts (`unreadable_text`, `unreadable_pages`), so the result says so and offers OCR; with
 * `ocr` they are recognised too, and the recognised text replaces theirs.
 */
import type * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import { ocrDocument } from "../ocr/ocr-pdf.ts";
import { OCR_FONT_NAME } from "../ocr/text-layer.ts";
import type { EngineHandler } from "../types.ts";
import { markHeadings, markListLevels } from "./docx/headings.ts";
import { inVisualOrder, toLogicalOrder } from "./docx/indic.ts";
import { layoutPage } from "./docx/layout.ts";
import { visualLines } from "./docx/lines.ts";
import type { Line, PageModel } from "./docx/model.ts";
import { pictureOf } from "./docx/pictures.ts";
import { findRunningHeads, type PageLines } from "./docx/running-heads.ts";
import { writeDocx } from "./docx/write-docx.ts";
import { openPdf, wasRepaired } from "./open-pdf.ts";
import { type PageText, type ReadOptions, readPageText, textLines } from "./structured-text.ts";
import { onlyTextInFont, unreadableText } from "./unreadable-text.ts";
import { asPdfJobError } from "./write-pdf.ts";

export interface PdfToWordOptions {
  /** Recognise the text of pages that have none (scans) before converting. */
  readonly ocr?: boolean;
}

/** Share of the progress scale recognition takes when asked for (it is most of the work). */
const OCR_PROGRESS = 70;

export const pdfToWord: EngineHandler<PdfToWordOptions> = async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No PDF to convert.");
  const doc = openPdf(input.bytes, 0);
  try {
    const pageCount = doc.countPages();
    const recognised = new Set<number>();
    /** Pages whose own text gave way to recognised text: only the recognised text is read. */
    const replaced = new Set<number>();
    let start = 0;
    if (options.ocr === true) {
      const unreadable = unreadablePages(doc, pageCount);
      const summary = await ocrDocument(
        doc,
        { languages: [], redo: false, alsoPages: unreadable },
        (percent) => progress((percent * OCR_PROGRESS) / 100),
      );
      for (const index of summary.recognised) {
        recognised.add(index);
        if (unreadable.has(index)) replaced.add(index);
      }
      start = OCR_PROGRESS;
    }
    const read = (page: mupdf.PDFPage, index: number, readOptions?: ReadOptions): PageText => {
      const text = readPageText(page, index, readOptions);
      return replaced.has(index) ? onlyTextInFont(text, OCR_FONT_NAME) : text;
    };
    const scale = (100 - start) / 100;
    const { edges, visualOrder } = firstPass(doc, pageCount, read, (done) =>
      progress(start + (done / pageCount) * 30 * scale),
    );
    let unreadableCount = 0;
    const heads = findRunningHeads(edges);
    const pages: PageModel[] = [];
    for (let index = 0; index < pageCount; index++) {
      const page = doc.loadPage(index);
      try {
        const text = read(page, index);
        if (unreadableText(textLines(text))) unreadableCount++;
        const removed = new Set([...(heads.removed[index] ?? [])].map(lineKey));
        const lines = visualLines(textLines(text))
          .map((line) => (visualOrder ? logical(line) : line))
          .filter((line) => !removed.has(lineKey(line)));
        // A recognised page's scan is its text now: the paragraphs replace the picture.
        const pictures = text.blocks.flatMap((block) => {
          if (block.type !== "image" || recognised.has(index)) return [];
          const picture = pictureOf(block);
          return picture === null ? [] : [picture];
        });
        const model = layoutPage(text, lines, pictures);
        markListLevels(model.blocks);
        pages.push(model);
      } finally {
        page.destroy();
      }
      progress(start + (30 + ((index + 1) / pageCount) * 60) * scale);
    }
    const textPages = pages.filter((page) => page.blocks.some((block) => block.type !== "image")).length;
    if (textPages === 0 && heads.header.length === 0 && heads.footer.length === 0) {
      throw new AppError("PDF_NO_TEXT", "The PDF has no text layer (scanned pages).", { file_index: 0 });
    }
    const headings = markHeadings(pages);
    const bytes = await writeDocx({
      pages,
      header: heads.header,
      footer: heads.footer,
      printed: heads.printed,
    });
    progress(100);
    const facts = factsOf(pages, headings, heads, wasRepaired(doc));
    return {
      bytes,
      facts:
        unreadableCount > 0 ? { ...facts, unreadable_text: true, unreadable_pages: unreadableCount } : facts,
    };
  } catch (error) {
    // MuPDF's own errors on a file that opened (a page-tree cycle) are damage, as merge says.
    throw asPdfJobError(error, "conversion to Word", { file_index: 0 });
  } finally {
    doc.destroy();
  }
};

/** The 0-based indexes of the pages whose text cannot be read. */
function unreadablePages(doc: mupdf.PDFDocument, pageCount: number): Set<number> {
  const pages = new Set<number>();
  for (let index = 0; index < pageCount; index++) {
    const page = doc.loadPage(index);
    try {
      if (unreadableText(textLines(readPageText(page, index, { images: false, rules: false }))))
        pages.add(index);
    } finally {
      page.destroy();
    }
  }
  return pages;
}

function firstPass(
  doc: mupdf.PDFDocument,
  pageCount: number,
  read: (page: mupdf.PDFPage, index: number, options: ReadOptions) => PageText,
  progress: (done: number) => void,
) {
  const edges: PageLines[] = [];
  const samples: string[] = [];
  for (let index = 0; index < pageCount; index++) {
    const page = doc.loadPage(index);
    try {
      const text = read(page, index, { images: false, rules: false });
      const lines = visualLines(textLines(text));
      edges.push({
        width: text.width,
        height: text.height,
        lines: lines.filter((line) => line.box[3] <= text.height * 0.15 || line.box[1] >= text.height * 0.85),
      });
      if (samples.length < 5000) samples.push(...lines.map((line) => line.text));
    } finally {
      page.destroy();
    }
    progress(index + 1);
  }
  return { edges, visualOrder: inVisualOrder(samples) };
}

/** A line's identity across the two passes: its place and text. */
function lineKey(line: Line): string {
  return `${Math.round(line.box[0])},${Math.round(line.box[1])},${line.text}`;
}

function logical(line: Line): Line {
  return {
    ...line,
    text: toLogicalOrder(line.text),
    spans: line.spans.map((span) => ({ ...span, text: toLogicalOrder(span.text) })),
  };
}

function factsOf(
  pages: readonly PageModel[],
  headings: number,
  heads: ReturnType<typeof findRunningHeads>,
  repaired: boolean,
): JobFacts {
  const blocks = pages.flatMap((page) => page.blocks);
  const scanned = pages.filter((page) => page.scanned).length;
  return {
    pages: pages.length,
    paragraphs: blocks.filter((block) => block.type === "paragraph").length,
    headings,
    tables: blocks.filter((block) => block.type === "table").length,
    images: blocks.filter((block) => block.type === "image").length,
    list_items: blocks.filter((block) => block.type === "paragraph" && block.list !== null).length,
    running_header: heads.header.length > 0,
    running_footer: heads.footer.length > 0,
    ...(scanned > 0 ? { pages_without_text: scanned } : {}),
    ...(repaired ? { repaired: true } : {}),
  };
}
