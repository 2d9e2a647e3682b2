/**
 * The style sheet of the PDF, in the CSS subset MuPDF's HTML layout reads. Sizes are in points at
 * 10.5 pt body text; the page margins are left to the layout (see layout-pdf.ts), which reserves
 * the footer band.
 */
import { FALLBACK_FAMILIES, SCRIPT_FAMILIES } from "./fonts.ts";

/** The code block's background: the highlighting colours are checked against it. */
export const CODE_BACKGROUND = "#f6f8fa";

/**
 * highlight.js token colours (GitHub's light theme), each with a contrast of at least 4.5:1 on the
 * code block's background (WCAG AA; a test checks it).
 */
export const TOKEN_COLOURS: Readonly<Record<string, string>> = {
  "#cf222e": "keyword doctag template-tag template-variable type",
  "#6639ba": "title",
  "#0550ae":
    "attr attribute literal meta number operator variable selector-attr selector-class selector-id section",
  "#0a3069": "regexp string",
  "#953800": "built_in symbol bullet",
  "#59636e": "comment code formula",
  "#116329": "name quote selector-tag selector-pseudo addition",
  "#82071e": "deletion",
};

const CODE_COLOURS = [
  ...Object.entries(TOKEN_COLOURS).map(
    ([colour, tokens]) =>
      `${tokens
        .split(" ")
        .map((token) => `.hljs-${token}`)
        .join(", ")} { color: ${colour}; }`,
  ),
  ".hljs-comment { font-style: italic; }",
  ".hljs-section, .hljs-strong { font-weight: bold; }",
  ".hljs-emphasis { font-style: italic; }",
].join("\n");

/** Symbols and emoji set in the faces that have them (fallback-glyphs.ts names the face). */
const FALLBACK_STYLE = [...SCRIPT_FAMILIES, ...FALLBACK_FAMILIES]
  .map((family) => `.${family} { font-family: ${family}; }`)
  .join("\n");

export const PDF_STYLE = `
html, body { margin: 0; padding: 0; }
body { font-family: sans-serif; font-size: 10.5pt; line-height: 1.45; color: #1f2328; }
h1, h2, h3, h4, h5, h6 { font-weight: bold; line-height: 1.25; margin: 1.1em 0 0.5em 0; page-break-after: avoid; }
h1 { font-size: 20pt; border-bottom: 1px solid #d1d9e0; padding-bottom: 0.2em; }
h2 { font-size: 16pt; border-bottom: 1px solid #d1d9e0; padding-bottom: 0.2em; }
h3 { font-size: 13pt; }
h4 { font-size: 11pt; }
h5 { font-size: 10.5pt; }
h6 { font-size: 10pt; color: #59636e; }
p { margin: 0 0 0.7em 0; }
.page-break { page-break-before: always; }
a { color: #0969da; text-decoration: underline; }
strong, b { font-weight: bold; }
em, i { font-style: italic; }
del, s { text-decoration: line-through; }
ul, ol { margin: 0 0 0.7em 0; padding-left: 1.8em; }
/* MuPDF's circle and square markers are outside the bundled fonts: every level gets a disc. */
ul, ul ul, ul ul ul, ol ul, ul > li { list-style-type: disc; }
ol > li { list-style-type: decimal; }
li { margin: 0.15em 0; }
li > p { margin: 0.2em 0; }
.task-box { font-family: monospace; padding-right: 0.3em; }
blockquote { margin: 0 0 0.7em 0; padding: 0 0 0 0.9em; border-left: 3px solid #d1d9e0; color: #59636e; }
hr { border: 0; border-top: 2px solid #d1d9e0; margin: 1.2em 0; }
code { font-family: monospace; font-size: 9pt; background-color: #eff1f3; }
pre { font-family: monospace; font-size: 8.5pt; line-height: 1.35; white-space: pre-wrap; background-color: ${CODE_BACKGROUND}; border: 1px solid #d1d9e0; padding: 6pt; margin: 0 0 0.8em 0; }
pre code { font-size: 8.5pt; background-color: transparent; }
${CODE_COLOURS}
${FALLBACK_STYLE}
table { border-collapse: collapse; margin: 0 0 0.8em 0; font-size: 9pt; }
th, td { border: 1px solid #d1d9e0; padding: 3pt 5pt; vertical-align: top; }
th { font-weight: bold; background-color: #f6f8fa; }
.align-left { text-align: left; }
.align-center { text-align: center; }
.align-right { text-align: right; }
img { max-width: 100%; }
.image-alt { color: #59636e; font-style: italic; }
.footnotes { font-size: 9pt; border-top: 1px solid #d1d9e0; margin-top: 1.5em; }
.footnotes h2 { font-size: 10pt; border: 0; }
sup { font-size: 7pt; }
`;
