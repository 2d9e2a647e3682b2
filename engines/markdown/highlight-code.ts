/**
 * Syntax highlighting of fenced code with highlight.js: its core and the languages most written
 * in Markdown, registered one by one (the full build registers 190 languages and loads them all).
 * The language is the first word of the fence's info string, by name or alias ("ts", "sh",
 * "yml"); a fence with no language or an unknown one stays plain. highlight.js escapes the code
 * and wraps tokens in `<span class="hljs-…">`, coloured by the PDF's style sheet (pdf-style.ts).
 */
import { createRequire } from "node:module";

/**
 * The part of highlight.js used here. It is loaded without its own types: they declare the
 * browser's DOM globally, which would change the Worker's types (engines/ are type-checked for
 * the Worker too).
 */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  getLanguage(name: string): object | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

/** The languages highlighted, by name (their aliases, such as "ts" and "sh", work as well). */
const LANGUAGES = [
  "bash",
  "c",
  "cpp",
  "csharp",
  "css",
  "diff",
  "dockerfile",
  "go",
  "ini",
  "java",
  "javascript",
  "json",
  "kotlin",
  "markdown",
  "php",
  "python",
  "ruby",
  "rust",
  "shell",
  "sql",
  "swift",
  "typescript",
  "xml",
  "yaml",
] as const;

const require = createRequire(import.meta.url);
const hljs = require("highlight.js/lib/core") as Highlighter;
for (const name of LANGUAGES) hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`));

/**
 * Most code one document gets highlighted (characters); code past it stays plain. Measured on the
 * shared 2-core machine: highlight.js takes 0.3–1 s per 100 KB of JavaScript or TypeScript, so a
 * 5 MB file of code would take most of the job's time; a megabyte stays within about 10 s.
 */
export const MAX_HIGHLIGHTED = 1_000_000;

/**
 * A highlighter for one document: the highlighted HTML of a code block, or null when its language
 * is none or unknown, or the document's highlighting budget is spent.
 */
export function documentHighlighter(): (code: string, info: string | undefined) => string | null {
  let left = MAX_HIGHLIGHTED;
  return (code, info) => {
    const language = info?.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
    if (language === "" || hljs.getLanguage(language) === undefined || code.length > left) return null;
    left -= code.length;
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  };
}
