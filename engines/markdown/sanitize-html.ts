/**
 * The spec's sanitiser (§5) for HTML made from Markdown, with DOMPurify over jsdom. jsdom is the
 * DOM DOMPurify's own tests run on; lighter DOMs (linkedom, happy-dom) parse differently from
 * browsers, which is how mutation-XSS slips through a sanitiser.
 * - Safe tags and attributes only (DOMPurify's list, without forms and inline styles); script and
 *   style content is dropped, as are on* handlers.
 * - Link addresses: http, https, irc, ircs, mailto, xmpp, or relative; anything else is blanked.
 * - Images: data: URIs of raster formats MuPDF decodes are embedded. No other image is ever
 *   fetched (a server that loads user-given addresses is open to SSRF): it is replaced by its alt
 *   text, and counted so the result can say so.
 * - Words too long for a line get line-break opportunities (break-long-words.ts), and symbols and
 *   emoji the text fonts lack are set in the symbol and emoji fonts (fallback-glyphs.ts).
 * - id and name values get the clobber prefix "user-content-" (as GitHub does); in-document links
 *   ("#section") are rewritten to match.
 */
import { createRequire } from "node:module";
import DOMPurify, { type DOMPurify as Purifier, type WindowLike } from "dompurify";
import { breakLongWords, type TextWalker } from "./break-long-words.ts";
import { type FallbackTextNode, markFallbackGlyphs } from "./fallback-glyphs.ts";

/**
 * jsdom, loaded without its type package: @types/jsdom declares the browser's DOM globally, which
 * would change the Worker's own types (engines/ are type-checked for the Worker too).
 */
interface JsdomModule {
  JSDOM: new (html: string) => { window: WindowLike & { document: TreeDocument } };
}

/** The few DOM members used here (engines/ are also type-checked without the DOM library). */
interface TreeElement {
  className: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  replaceWith(node: TreeElement): void;
  remove(): void;
}
interface TreeBody {
  innerHTML: string;
  querySelectorAll(selector: string): ArrayLike<TreeElement>;
}
interface TreeDocument {
  createElement(tag: string): TreeElement;
  createTreeWalker(root: TreeBody, whatToShow: number): TextWalker;
}
/** NodeFilter.SHOW_TEXT. */
const SHOW_TEXT = 4;
const { JSDOM } = createRequire(import.meta.url)("jsdom") as JsdomModule;

export const CLOBBER_PREFIX = "user-content-";
const LINK_SCHEMES = /^(?:(?:https?|ircs?|mailto|xmpp):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
const EMBEDDABLE_IMAGE = /^data:image\/(?:png|jpeg|jpg|gif|bmp|tiff);base64,[a-z0-9+/=\s]+$/i;

export interface SanitizedHtml {
  readonly html: string;
  /** Images shown as their alt text because they are not embedded in the Markdown. */
  readonly imagesReplaced: number;
}

let purifier: { purify: Purifier; document: TreeDocument } | null = null;

function createPurifier() {
  const { window } = new JSDOM("");
  const purify = DOMPurify(window);
  purify.addHook("afterSanitizeAttributes", (node) => {
    if (!("getAttribute" in node)) return;
    const element = node as unknown as TreeElement;
    const href = element.getAttribute("href");
    if (href?.startsWith("#") === true && !href.startsWith(`#${CLOBBER_PREFIX}`)) {
      element.setAttribute("href", `#${CLOBBER_PREFIX}${href.slice(1)}`);
    }
    // Table cell alignment (marked writes align="…") becomes a class the style sheet knows.
    const align = element.getAttribute("align");
    if (align !== null) {
      element.removeAttribute("align");
      if (/^(left|center|right)$/.test(align))
        element.className = `${element.className} align-${align}`.trim();
    }
  });
  return { purify, document: window.document };
}

/** Replaces what MuPDF must not or cannot draw, in the already sanitised tree. */
function replaceUnembeddable(body: TreeBody, document: TreeDocument): number {
  let replaced = 0;
  for (const image of Array.from(body.querySelectorAll("img"))) {
    if (EMBEDDABLE_IMAGE.test(image.getAttribute("src")?.trim() ?? "")) continue;
    const alt = image.getAttribute("alt")?.trim() ?? "";
    const text = document.createElement("span");
    text.className = "image-alt";
    text.textContent = alt === "" ? "[image]" : `[${alt}]`;
    image.replaceWith(text);
    replaced += 1;
  }
  // Footnote back-links: "↩" is in none of the bundled fonts (MuPDF would draw it blank).
  for (const back of Array.from(body.querySelectorAll(`a[href^="#${CLOBBER_PREFIX}footnote-ref"]`))) {
    if (back.textContent?.trim() === "\u21A9") back.textContent = "\u2191";
  }
  // Task-list boxes: MuPDF draws no form controls, so each box becomes text ("[x]", "[ ]").
  for (const input of Array.from(body.querySelectorAll("input"))) {
    if (input.getAttribute("type") !== "checkbox") {
      input.remove();
      continue;
    }
    const box = document.createElement("span");
    box.className = "task-box";
    box.textContent = input.hasAttribute("checked") ? "[x]" : "[ ]";
    input.replaceWith(box);
  }
  return replaced;
}

export function sanitizeHtml(html: string): SanitizedHtml {
  purifier ??= createPurifier();
  const { purify, document } = purifier;
  const dom = purify.sanitize(html, {
    ALLOWED_URI_REGEXP: LINK_SCHEMES,
    SANITIZE_NAMED_PROPS: true,
    FORBID_TAGS: [
      "style",
      "form",
      "button",
      "select",
      "textarea",
      "iframe",
      "object",
      "embed",
      "svg",
      "math",
    ],
    FORBID_ATTR: ["style", "srcset"],
    ALLOW_DATA_ATTR: false,
    RETURN_DOM: true,
  });
  // RETURN_DOM answers the <body> holding the clean tree.
  const body = dom as unknown as TreeBody;
  const imagesReplaced = replaceUnembeddable(body, document);
  breakLongWords(document.createTreeWalker(body, SHOW_TEXT));
  const texts: FallbackTextNode[] = [];
  const walker = document.createTreeWalker(body, SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode())
    texts.push(node as FallbackTextNode);
  markFallbackGlyphs(texts, document);
  return { html: body.innerHTML, imagesReplaced };
}
