import { LANGUAGE_CODES } from "../../../contract/languages.ts";
import { stripLanguage, withLanguagePrefix } from "./i18n/language-path";

/** The search-engine and social-card description of one page. */
export interface PageHeadInput {
  /** The full title, brand included. */
  title: string;
  description: string;
  brand: string;
  /** The page's path ("/de/tools"). */
  pathname: string;
  /** The site's public origin, without a trailing slash. */
  origin: string;
  type?: "website" | "article";
  /** Absolute, or a path on the site. */
  image?: string;
  /** Comma-separated, for `<meta name="keywords">` (blog posts: their tags). */
  keywords?: string;
  /** Extra `<meta property>` tags such as article:author. */
  extra?: Readonly<Record<string, string>>;
  /** A page search engines should not list (the not-found page): no canonical, no alternates. */
  noindex?: boolean;
}

export interface HeadTag {
  tag: "meta" | "link";
  attributes: Record<string, string>;
}

export interface PageHead {
  title: string;
  tags: HeadTag[];
}

/** Marks the elements the head helpers own, so navigation replaces them and nothing else. */
export const HEAD_MARKER = "data-page-head";

/** The canonical address of a path: the origin and the path, without a trailing slash. */
export function pageUrl(origin: string, pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return `${origin}${path}`;
}

/**
 * Title, description, canonical URL, hreflang alternates for every language plus x-default (the
 * unprefixed path), social-card tags and robots index,follow.
 */
export function pageHead(input: PageHeadInput): PageHead {
  const {
    title,
    description,
    brand,
    pathname,
    origin,
    type = "website",
    image,
    keywords,
    extra = {},
    noindex = false,
  } = input;
  if (noindex)
    return {
      title,
      tags: [
        { tag: "meta", attributes: { name: "description", content: description } },
        { tag: "meta", attributes: { name: "robots", content: "noindex" } },
      ],
    };
  const url = pageUrl(origin, pathname);
  const base = stripLanguage(pathname);
  const meta = (attribute: "name" | "property", key: string, content: string): HeadTag => ({
    tag: "meta",
    attributes: { [attribute]: key, content },
  });
  const link = (attributes: Record<string, string>): HeadTag => ({ tag: "link", attributes });
  const imageUrl = image ? new URL(image, `${origin}/`).href : undefined;
  return {
    title,
    tags: [
      meta("name", "description", description),
      meta("name", "robots", "index, follow"),
      ...(keywords ? [meta("name", "keywords", keywords)] : []),
      link({ rel: "canonical", href: url }),
      ...LANGUAGE_CODES.map((code) =>
        link({ rel: "alternate", hreflang: code, href: pageUrl(origin, withLanguagePrefix(base, code)) }),
      ),
      link({ rel: "alternate", hreflang: "x-default", href: pageUrl(origin, base) }),
      meta("property", "og:title", title),
      meta("property", "og:description", description),
      meta("property", "og:type", type),
      meta("property", "og:url", url),
      meta("property", "og:site_name", brand),
      ...(imageUrl ? [meta("property", "og:image", imageUrl)] : []),
      meta("name", "twitter:card", imageUrl ? "summary_large_image" : "summary"),
      meta("name", "twitter:title", title),
      meta("name", "twitter:description", description),
      ...(imageUrl ? [meta("name", "twitter:image", imageUrl)] : []),
      ...Object.entries(extra).map(([key, value]) => meta("property", key, value)),
    ],
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The head as HTML, for prerendered pages. */
export function headHtml(head: PageHead): string {
  const tags = head.tags.map(({ tag, attributes }) => {
    const attrs = Object.entries(attributes)
      .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
      .join("");
    return `<${tag}${attrs} ${HEAD_MARKER}>`;
  });
  return [`<title>${escapeHtml(head.title)}</title>`, ...tags].join("\n    ");
}

/** Puts the head into the document, replacing the previous page's tags. */
export function applyHead(head: PageHead, document: Document): void {
  document.title = head.title;
  document.head.querySelectorAll(`[${HEAD_MARKER}]`).forEach((element) => {
    element.remove();
  });
  for (const { tag, attributes } of head.tags) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.setAttribute(HEAD_MARKER, "");
    document.head.append(element);
  }
}
