/** Markdown to PDF run the way the container runs it, on Markdown built in a test. */
import { type MarkdownToPdfOptions, markdownToPdf } from "../../engines/markdown/markdown-to-pdf.ts";

export async function convert(
  markdown: string,
  options: Partial<MarkdownToPdfOptions> = {},
  name = "notes.md",
) {
  const progress: number[] = [];
  const output = await markdownToPdf(
    [{ name, kind: "markdown", bytes: new TextEncoder().encode(markdown) }],
    { page_size: "a4", ...options },
    (percent) => progress.push(percent),
  );
  return { ...output, progress };
}
