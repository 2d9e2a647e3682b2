/**
 * Markdown → HTML with marked, GitHub-flavoured: tables, task lists, strikethrough, autolinks,
 * footnotes (marked-footnote), heading ids as GitHub makes them (marked-gfm-heading-id) and fenced
 * code highlighted by its language (highlight-code.ts). Raw HTML passes through here and is
 * cleaned by sanitize-html.ts.
 */
import { Marked } from "marked";
import markedFootnote from "marked-footnote";
import { gfmHeadingId } from "marked-gfm-heading-id";
import { AppError } from "../../contract/index.ts";
import { documentHighlighter } from "./highlight-code.ts";

/**
 * Deepest nesting of lists and quotes kept: marked recurses once per level, and past a few thousand
 * levels Node's stack overflows. No real document comes near this; deeper input is refused.
 */
export const MAX_NESTING = 200;

function nestingDepth(markdown: string): number {
  let deepest = 0;
  for (const line of markdown.split("\n", 200_000)) {
    // Each quote marker or each two columns of list indentation opens a level.
    const quotes = /^[\s>]*/.exec(line)?.[0].replaceAll(/\s/g, "").length ?? 0;
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    deepest = Math.max(deepest, quotes + Math.floor(indent / 2));
  }
  return deepest;
}

export function markdownToHtml(markdown: string): string {
  if (nestingDepth(markdown) > MAX_NESTING) {
    throw new AppError("INVALID_OPTIONS", "The Markdown is nested too deeply to lay out.", {
      file_index: 0,
      max_nesting: MAX_NESTING,
      markdown_error: "nestedTooDeeply",
    });
  }
  // A new instance per document: the heading-id slugger counts the ids of one document.
  const highlightCode = documentHighlighter();
  const marked = new Marked(
    { gfm: true, async: false },
    gfmHeadingId(),
    markedFootnote({ refMarkers: false }),
    {
      renderer: {
        // Highlighted code, or false for marked's own plain rendering.
        code({ text, lang }) {
          const highlighted = highlightCode(text, lang);
          return highlighted === null ? false : `<pre><code class="hljs">${highlighted}\n</code></pre>\n`;
        },
      },
    },
  );
  try {
    return marked.parse(markdown, { async: false });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new AppError("INVALID_OPTIONS", "The Markdown is nested too deeply to lay out.", {
        file_index: 0,
      });
    }
    throw error;
  }
}
