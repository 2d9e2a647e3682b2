/**
 * The sanitiser of article bodies (spec §5): DOMPurify with a fixed list of tags and attributes,
 * script and style content dropped, and an address policy applied per attribute:
 * - `href`: http, https, irc, ircs, mailto, xmpp or relative;
 * - `src` (images) and `cite`: http, https or relative;
 * anything else is blanked. Browsers ignore leading control characters and spaces and tabs or
 * newlines inside a scheme ("\u0001java\tscript:"), so those are removed before the scheme is read.
 * `id` and `name` values get the clobber prefix (DOMPurify's SANITIZE_NAMED_PROPS), and links to
 * in-page anchors are rewritten to match.
 */
import DOMPurify, { type WindowLike } from "dompurify";

/** Prefix DOMPurify's SANITIZE_NAMED_PROPS gives `id` and `name` values. */
export const CLOBBER_PREFIX = "user-content-";

const TAGS = [
  "a",
  "abbr",
  "b",
  "blockquote",
  "br",
  "caption",
  "code",
  "dd",
  "del",
  "details",
  "div",
  "dl",
  "dt",
  "em",
  "figcaption",
  "figure",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "img",
  "ins",
  "kbd",
  "li",
  "mark",
  "ol",
  "p",
  "pre",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "var",
];
const ATTRIBUTES = [
  "href",
  "src",
  "alt",
  "title",
  "cite",
  "id",
  "name",
  "align",
  "colspan",
  "rowspan",
  "start",
  "reversed",
  "lang",
  "dir",
  "datetime",
  "open",
  "width",
  "height",
];

const LINK_SCHEMES = new Set(["http", "https", "irc", "ircs", "mailto", "xmpp"]);
const MEDIA_SCHEMES = new Set(["http", "https"]);
/** Which schemes each address attribute may use (relative addresses are always kept). */
const SCHEMES_BY_ATTRIBUTE: Readonly<Record<string, ReadonlySet<string>>> = {
  href: LINK_SCHEMES,
  src: MEDIA_SCHEMES,
  cite: MEDIA_SCHEMES,
};

/** What a URL parser skips: C0 controls and space around, tabs and newlines anywhere. */
const IGNORED_BY_URL_PARSERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes
  /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** The scheme a browser would read in `address` (lower case), or null for a relative address. */
export function schemeOf(address: string): string | null {
  const match = SCHEME.exec(address.replace(IGNORED_BY_URL_PARSERS, ""));
  return match?.[1] ? match[1].toLowerCase() : null;
}

/** Relative to the content folder: neither a scheme, nor a root, anchor or query address. */
function isContentRelative(address: string): boolean {
  return schemeOf(address) === null && !/^[/#?]/.test(address.trim());
}

export type ResolveContentPath = (path: string) => string;

/** A sanitiser on the given window (the browser's, or jsdom's in tests). */
export function createPostSanitizer(
  window: WindowLike,
): (html: string, resolve: ResolveContentPath) => string {
  const purify = DOMPurify(window);
  let resolve: ResolveContentPath = (path) => path;
  purify.addHook("afterSanitizeAttributes", (node) => {
    const element = node as Element;
    for (const [attribute, schemes] of Object.entries(SCHEMES_BY_ATTRIBUTE)) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      const scheme = schemeOf(value);
      if (scheme !== null && !schemes.has(scheme)) element.setAttribute(attribute, "");
      else if (attribute !== "cite" && isContentRelative(value))
        element.setAttribute(attribute, resolve(value.trim()));
    }
    if (element.tagName !== "A") return;
    const href = element.getAttribute("href") ?? "";
    if (href.startsWith("#") && href.length > 1 && !href.startsWith(`#${CLOBBER_PREFIX}`))
      element.setAttribute("href", `#${CLOBBER_PREFIX}${href.slice(1)}`);
    if (schemeOf(href) === "http" || schemeOf(href) === "https") {
      element.setAttribute("target", "_blank");
      element.setAttribute("rel", "noopener noreferrer");
    }
  });
  return (html, resolveContentPath) => {
    resolve = resolveContentPath;
    return purify.sanitize(html, {
      ALLOWED_TAGS: TAGS,
      ALLOWED_ATTR: ATTRIBUTES,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
      SANITIZE_NAMED_PROPS: true,
      // DOMPurify's own address check, as strict as the per-attribute policy above.
      ALLOWED_URI_REGEXP: /^(?:(?:https?|ircs?|mailto|xmpp):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
    });
  };
}
