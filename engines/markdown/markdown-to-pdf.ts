/**
 * Markdown to PDF (tools/markdown-to-pdf): marked (GitHub-flavoured) → DOMPurify (the spec's
 * rules) → MuPDF's HTML layout with bundled Noto fonts, A4 or Letter. The download is named after
 * the source file.
 */
import { AppError, type JobFacts, markdownText } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { prepareFonts } from "./fonts.ts";
import { layoutPdf, type PageSize } from "./layout-pdf.ts";
import { markdownToHtml } from "./markdown-html.ts";
import { sanitizeHtml } from "./sanitize-html.ts";

/**
 * Most pages one job makes. Measured on a 2-core machine: a 5 MB Markdown file (the input limit)
 * parses and sanitises in 10 s and lays out to 1,553 pages in 18 s, but writing those pages takes
 * about 0.11 s each (1,553 pages: 193 s, 1.9 GB), past the 120 s job limit. 500 pages stay near
 * 60 s; longer documents are refused after the layout, within about 30 s.
 */
export const MAX_PAGES = 500;

export interface MarkdownToPdfOptions {
  readonly page_size: PageSize;
}

/** "notes.md" → "notes.pdf". */
export function pdfNameOf(name: string): string {
  const base = name.replace(/\.(md|markdown|mdown|mkdn|mkd)$/i, "").trim();
  return `${base === "" ? "converted" : base}.pdf`;
}

export const markdownToPdf: EngineHandler<MarkdownToPdfOptions> = async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No Markdown file to convert.");
  const text = markdownText(input.bytes);
  if (text.trim() === "") {
    throw new AppError("INVALID_OPTIONS", "The Markdown file is empty.", {
      file_index: 0,
      markdown_error: "empty",
    });
  }
  await prepareFonts();
  progress(5);
  const { html, imagesReplaced } = sanitizeHtml(markdownToHtml(text));
  progress(10);
  const pdf = layoutPdf(html, options.page_size, (percent) => progress(10 + percent * 0.9), MAX_PAGES);
  const facts: JobFacts = {
    pages: pdf.pages,
    page_size: options.page_size,
    images_replaced: imagesReplaced,
  };
  return { bytes: pdf.bytes, facts, name: pdfNameOf(input.name) };
};
