/**
 * Article bodies: Markdown (GitHub flavour) to HTML with marked, then sanitised. Imported only by
 * the article screen, so marked and DOMPurify load with that route and never with the home page.
 */
import { Marked } from "marked";
import { assetUrl } from "./posts";
import { createPostSanitizer } from "./sanitize-post-html";

const marked = new Marked({ gfm: true, async: false });
let sanitize: ReturnType<typeof createPostSanitizer> | undefined;

/** Safe HTML of a post body; relative addresses point into the content folder. */
export function renderPostMarkdown(markdown: string): string {
  sanitize ??= createPostSanitizer(window);
  return sanitize(marked.parse(markdown, { async: false }), assetUrl);
}
