import { CONTAINER, declareTool, markdownInput, NOT_BUILT, options } from "../../contract/tool-kit.ts";

/** Markdown to PDF: one Markdown file typeset into a PDF. */
export default declareTool({
  id: "markdown-to-pdf",
  category: "pdf",
  order: 8,
  icon: "markdown",
  ...NOT_BUILT,
  input: markdownInput,
  options: options.none(),
  output: { kind: "pdf" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/markdown-to-pdf", fileField: "file", fields: {} },
});
