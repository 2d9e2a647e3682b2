import type { Context, Hono } from "hono";
import { languageDetector } from "hono/language";
import {
  FALLBACK_LANGUAGE,
  LANGUAGE_CODES,
  LANGUAGE_COOKIE,
  type LanguageCode,
  languageOfPath,
} from "../contract/index.ts";
import type { AppEnv } from "./env.ts";

/*
 * The pages the Worker answers itself; every other page is a prerendered file the assets serve
 * without waking it (wrangler.toml `run_worker_first` names `/`, and `not_found_handling = "none"`
 * hands it the addresses no file matches). A page's language is the one its path names; the visitor's
 * stored choice (LANGUAGE_COOKIE), then the browser's languages, decide only where `/` sends a new
 * visit and the language of the not-found page of an address that names none.
 */

/** The visitor's language from the path, else the cookie, else Accept-Language, else English. */
const visitorLanguage = languageDetector({
  order: ["path", "cookie", "header"],
  lookupCookie: LANGUAGE_COOKIE,
  lookupFromPathIndex: 0,
  supportedLanguages: LANGUAGE_CODES,
  fallbackLanguage: FALLBACK_LANGUAGE,
  caches: false,
});

/** Answers that depend on the visitor's cookie and languages are neither shared nor stored. */
function personal(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Vary", "Cookie, Accept-Language");
  headers.set("Cache-Control", "private, no-cache");
  return new Response(response.body, { status: response.status, headers });
}

interface NotFoundStrings {
  app: { name: string; titleTemplate: string };
  pages: { notFound: { title: string; description: string; text: string; home: string } };
}

/** Each language's shared strings, parsed only when a not-found page needs them. */
const STRINGS: Record<LanguageCode, () => Promise<{ default: NotFoundStrings }>> = {
  en: () => import("../locales/en/common.json"),
  es: () => import("../locales/es/common.json"),
  de: () => import("../locales/de/common.json"),
  fr: () => import("../locales/fr/common.json"),
  hi: () => import("../locales/hi/common.json"),
  te: () => import("../locales/te/common.json"),
  ta: () => import("../locales/ta/common.json"),
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * 404 with the home page of `language` (its header, footer and fonts) whose main area says the page
 * does not exist, and a head that keeps it out of search engines. The browser's app then renders the
 * same page (client/src/features/not-found) from the address.
 */
async function notFoundPage(c: Context<AppEnv>, language: LanguageCode): Promise<Response> {
  const prefixed = languageOfPath(new URL(c.req.url).pathname) !== null;
  const home = language === FALLBACK_LANGUAGE && !prefixed ? "/" : `/${language}`;
  const page = await c.env.ASSETS.fetch(new URL(home, c.req.url));
  if (!page.ok) return c.text("Not found", 404);
  const { app, pages } = (await STRINGS[language]()).default;
  const text = pages.notFound;
  const title = app.titleTemplate.replace("{{page}}", text.title).replace("{{name}}", app.name);
  const main = [
    '<div class="container page page--narrow not-found">',
    `<h1 class="page__title">${escapeHtml(text.title)}</h1>`,
    `<p class="page__subtitle">${escapeHtml(text.text)}</p>`,
    `<a class="button button--primary" href="${home}">${escapeHtml(text.home)}</a>`,
    "</div>",
  ].join("");
  const rewritten = new HTMLRewriter()
    .on("title", { element: (element) => void element.setInnerContent(title) })
    .on("[data-page-head]", { element: (element) => void element.remove() })
    .on("head", {
      element: (element) =>
        void element.append(
          `<meta name="description" content="${escapeHtml(text.description)}" data-page-head><meta name="robots" content="noindex" data-page-head>`,
          { html: true },
        ),
    })
    .on("main#main", { element: (element) => void element.setInnerContent(main, { html: true }) })
    .transform(page);
  return personal(new Response(rewritten.body, { status: 404, headers: rewritten.headers }));
}

/** A request for a page (no file extension in its last segment), as opposed to a missing file. */
function isPageRequest(c: Context<AppEnv>): boolean {
  const last = new URL(c.req.url).pathname.split("/").pop() ?? "";
  return (c.req.method === "GET" || c.req.method === "HEAD") && !last.includes(".");
}

export function registerSitePages(app: Hono<AppEnv>) {
  app.get("/", visitorLanguage, async (c) => {
    const language = c.get("language") as LanguageCode;
    if (language !== FALLBACK_LANGUAGE) {
      const { search } = new URL(c.req.url);
      return personal(new Response(null, { status: 302, headers: { Location: `/${language}${search}` } }));
    }
    return personal(await c.env.ASSETS.fetch(c.req.raw));
  });
  app.all("*", visitorLanguage, async (c) => {
    const response = await c.env.ASSETS.fetch(c.req.raw);
    if (response.status !== 404 || !isPageRequest(c)) return response;
    return notFoundPage(c, c.get("language") as LanguageCode);
  });
}
