/**
 * Article bodies: Markdown (GitHub flavour) to HTML with marked, then sanitised. Imported only by
 * the article screen, so marked and DOMPurify load with that route and never with the home page.
 */
import type { WindowLike } from "dompurify";
import { Marked } from "marked";
import { assetUrl } from "./posts";
import { createPostSanitizer } from "./sanitize-post-html";

const marked = new Marked({ gfm: true, async: false });
let sanitize: ReturnType<typeof createPostSanitizer> | undefined;
let serverWindow: WindowLike | undefined;

/** The window to sanitise with where there is no DOM (the prerender gives jsdom's). */
export function provideSanitizerWindow(view: WindowLike): void {
  serverWindow = view;
}

/** Safe HTML of a post body; relative addresses point into the content folder. */
export function renderPostMarkdown(markdown: string): string {
  const view = typeof window === "undefined" ? serverWindow : window;
  if (!view) throw new Error("renderPostMarkdown needs a DOM window (provideSanitizerWindow)");
  sanitize ??= createPostSanitizer(view);
  return sanitize(marked.parse(markdown, { async: false }), assetUrl);
}
