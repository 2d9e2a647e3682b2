/**
 * Sanitised HTML → PDF with MuPDF's HTML layout. The body is laid out in the page's text area;
 * each laid-out page is drawn into MuPDF's PDF writer moved inside the margins, with the page
 * number in the footer. The written PDF then gets what the writer leaves out: ActualText for
 * shaped scripts (actual-text.ts), link annotations, the outline from the headings, fonts subset
 * to the glyphs used.
 */
import * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import type { ProgressReporter } from "../types.ts";
import { addActualText } from "./actual-text.ts";
import { footerFont } from "./fonts.ts";
import { type DrawnGlyph, recordGlyphs } from "./glyph-text.ts";
import { layoutKeepingHeadings } from "./keep-headings.ts";
import { addLinks, addOutline, type Placement } from "./pdf-navigation.ts";
import { PDF_STYLE } from "./pdf-style.ts";

/** Page sizes in points. */
export const PAGE_SIZES = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
} as const;
export type PageSize = keyof typeof PAGE_SIZES;

/** Margins in points: 18 mm at the sides and top, and a footer band below. */
const MARGIN = { side: 51, top: 51, bottom: 60 } as const;
const FOOTER_SIZE = 8.5;
const BODY_EM = 10.5;

export interface LaidOutPdf {
  readonly bytes: Uint8Array;
  readonly pages: number;
  /** Text operations whose glyphs matched none drawn (0 when every glyph got its text). */
  readonly unmatchedText: number;
}

export function htmlDocument(body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${PDF_STYLE}</style></head><body>${body}</body></html>`;
}

/** Draws "n / total" centred in the footer band. */
function drawFooter(device: mupdf.Device, size: { width: number; height: number }, label: string) {
  const font = footerFont();
  const measure = new mupdf.Text();
  const end = measure.showString(font, [FOOTER_SIZE, 0, 0, -FOOTER_SIZE, 0, 0], label);
  const width = end[4];
  const text = new mupdf.Text();
  const baseline = size.height - MARGIN.bottom / 2;
  text.showString(font, [FOOTER_SIZE, 0, 0, -FOOTER_SIZE, (size.width - width) / 2, baseline], label);
  device.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0.45], 1);
}

export function layoutPdf(
  html: string,
  pageSize: PageSize,
  progress: ProgressReporter,
  maxPages: number,
): LaidOutPdf {
  const size = PAGE_SIZES[pageSize];
  const height = size.height - MARGIN.top - MARGIN.bottom;
  const open = (body: string) => {
    const document = mupdf.Document.openDocument(new TextEncoder().encode(htmlDocument(body)), "text/html");
    document.layout(size.width - 2 * MARGIN.side, height, BODY_EM);
    return document;
  };
  const source = layoutKeepingHeadings(html, height, open, (document) => document.countPages() > maxPages);
  const output = new mupdf.Buffer();
  try {
    const count = source.countPages();
    if (count > maxPages) {
      throw new AppError("TOO_MANY_PAGES", "The Markdown lays out to more pages than one job makes.", {
        file_index: 0,
        pages: count,
        max_pages: maxPages,
        markdown_error: "tooLong",
      });
    }
    const placement: Placement = { dx: MARGIN.side, dy: MARGIN.top };
    const move = mupdf.Matrix.translate(placement.dx, placement.dy);
    const writer = new mupdf.DocumentWriter(output, "pdf", "");
    const glyphs: DrawnGlyph[][] = [];
    for (let index = 0; index < count; index++) {
      const page = source.loadPage(index);
      const pageGlyphs: DrawnGlyph[] = [];
      const recorder = recordGlyphs(pageGlyphs);
      page.run(recorder, move);
      recorder.close();
      glyphs.push(pageGlyphs);
      const device = writer.beginPage([0, 0, size.width, size.height]);
      page.run(device, move);
      drawFooter(device, size, `${index + 1} / ${count}`);
      writer.endPage();
      page.destroy();
      progress(((index + 1) / count) * 80);
    }
    writer.close();
    const pdf = mupdf.Document.openDocument(output.asUint8Array().slice(), "application/pdf").asPDF();
    if (pdf === null) throw new Error("MuPDF wrote no PDF.");
    try {
      let unmatchedText = 0;
      for (let index = 0; index < count; index++) {
        const contents = pdf.findPage(index).get("Contents");
        const result = addActualText(contents.readStream().asString(), glyphs[index] ?? []);
        contents.writeStream(result.content);
        unmatchedText += result.unmatched;
      }
      addLinks(source, pdf, placement);
      addOutline(source, pdf, placement);
      pdf.subsetFonts();
      progress(95);
      const saved = pdf.saveToBuffer("garbage=compact,compress,compress-fonts");
      try {
        return { bytes: saved.asUint8Array().slice(), pages: count, unmatchedText };
      } finally {
        saved.destroy();
      }
    } finally {
      pdf.destroy();
    }
  } finally {
    output.destroy();
    source.destroy();
  }
}
