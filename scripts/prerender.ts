/**
 * Renders every page (scripts/site-pages.ts) to static HTML after the client build, so the Worker
 * serves real content that the app then hydrates (client/src/main.tsx). Builds the server entry
 * (client/src/entry-server.tsx) with Vite's SSR build, fills dist/client/index.html's template per
 * page (title, head tags, <html lang>, the rendered #root) and writes `<path>.html` (served at
 * `<path>` by the assets' default html_handling), plus sitemap.xml and robots.txt.
 * Run by `vite build` (vite.config.ts); `node scripts/prerender.ts` redoes it on an existing build.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { blogPostPath, blogTagPath, PATHS, toolPath } from "../client/src/config/paths.ts";
import {
  type BlogPost,
  localDay,
  metadataSchema,
  postQueryKey,
  postsQueryKey,
  publishedPosts,
} from "../client/src/features/blog/post-schema.ts";
import { AFTER_PAINT_TEMPLATE_ID } from "../client/src/lib/announce-after-paint.ts";
import type { PageHead } from "../client/src/lib/page-head.ts";
import { dataKey } from "../client/src/lib/prerendered-data.ts";
import { LANGUAGE_CODES, type LanguageCode } from "../contract/languages.ts";
import type { ToolId } from "../contract/tools.ts";
import { staticHeadersFile } from "../worker/security-headers.ts";
import { pagePreloads } from "./page-preloads.ts";
import { siteOrigin } from "./site-origin.ts";
import { localizedPath, type SitePage, sitePages } from "./site-pages.ts";
import { toolCatalog } from "./tool-registry.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT = join(ROOT, "dist/client");
const SERVER = join(ROOT, "dist/server");

interface ServerEntry {
  renderPage(
    pathname: string,
    language: LanguageCode,
    data: Readonly<Record<string, unknown>>,
  ): Promise<{ html: string; head: PageHead | null; namespaces: string[]; redirect?: string }>;
  headHtml(head: PageHead): string;
  prerenderedDataHtml(data: Readonly<Record<string, unknown>>): string;
}

/** The file serving a path: "/" → index.html, "/de/tools" → de/tools.html. */
export function pageFile(path: string): string {
  return path === "/" ? "index.html" : `${decodeURIComponent(path.slice(1))}.html`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * What the blog's pages show, as their queries would load it (features/blog/posts.ts): the published
 * posts for the list and tag pages, a post with its Markdown for an article.
 */
function blogData(page: SitePage, posts: readonly BlogPost[]): Record<string, unknown> {
  const published = publishedPosts(posts, localDay(new Date()));
  if (page.route === PATHS.blog) return { [dataKey(postsQueryKey())]: published };
  for (const post of published) {
    if (page.route === blogPostPath(post.slug)) {
      const body = readFileSync(join(ROOT, `content/blog/posts/${post.slug}.md`), "utf8");
      return { [dataKey(postQueryKey(post.slug))]: { post, body } };
    }
    for (const tag of post.tags)
      if (page.route === blogTagPath(tag))
        return {
          [dataKey(postsQueryKey(tag))]: published.filter((candidate) => candidate.tags.includes(tag)),
        };
  }
  return {};
}

function fillTemplate(
  entry: ServerEntry,
  template: string,
  page: SitePage,
  rendered: {
    html: string;
    head: PageHead;
    namespaces: string[];
    data: Readonly<Record<string, unknown>>;
    preloads: { head: string; afterPaint: string };
  },
): string {
  const root = [
    `<div id="root" data-path="${escapeAttribute(page.path)}" data-language="${page.language}"`,
    ` data-namespaces="${escapeAttribute(rendered.namespaces.join(" "))}">${rendered.html}</div>`,
    entry.prerenderedDataHtml(rendered.data),
  ].join("");
  return scriptsAfterContent(
    template
      .replace(/<html lang="[^"]*"/, `<html lang="${page.language}"`)
      .replace(/<title>[^<]*<\/title>/, entry.headHtml(rendered.head))
      .replace(
        "</head>",
        () => `${rendered.preloads.head}${afterPaintTemplate(rendered.preloads.afterPaint)}</head>`,
      )
      .replace('<div id="root"></div>', () => root),
  );
}

/**
 * What the page's scripts will fetch, inert in a `<template>` that the entry puts into the <head> once
 * the page is painted (client/src/lib/announce-after-paint.ts).
 */
function afterPaintTemplate(links: string): string {
  return links ? `<template id="${AFTER_PAINT_TEMPLATE_ID}">${links}</template>` : "";
}

/**
 * The app's scripts and their preloads at low fetch priority. The prerendered HTML is already the
 * page; the scripts only hydrate it, so they must not take the link from the document, its fonts
 * and its images before the first paint (at high priority, Chromium and Lighthouse treat them as
 * holding the paint back: on a slow phone profile, twice the plain page's first paint).
 */
export function scriptsAfterContent(html: string): string {
  return html
    .replace(/<script type="module"(?![^>]*fetchpriority)/g, '<script type="module" fetchpriority="low"')
    .replace(
      /<link rel="modulepreload"(?![^>]*fetchpriority)/g,
      '<link rel="modulepreload" fetchpriority="low"',
    );
}

/**
 * The template with its stylesheet inlined: a linked stylesheet blocks the first paint for one more
 * round trip, and once it arrives the app's scripts (waiting for it too) hydrate before the browser
 * paints. Returns the `<style>` element's CSP hash ('sha256-…') for `_headers`.
 */
export function inlineStylesheet(template: string): { html: string; styleHash: string | null } {
  const link = /<link rel="stylesheet"[^>]* href="(\/static\/[^"]+\.css)">/.exec(template);
  if (!link?.[1]) return { html: template, styleHash: null };
  const css = readFileSync(join(CLIENT, link[1]), "utf8");
  if (/<\/style/i.test(css)) throw new Error(`${link[1]} cannot be inlined: it contains "</style"`);
  const styleHash = `sha256-${createHash("sha256").update(css).digest("base64")}`;
  return { html: template.replace(link[0], () => `<style>${css}</style>`), styleHash };
}

function sitemap(pages: readonly SitePage[], origin: string): string {
  const urls = pages.map((page) => {
    const alternates = LANGUAGE_CODES.map(
      (code) =>
        `    <xhtml:link rel="alternate" hreflang="${code}" href="${origin}${localizedPath(page.route, code)}"/>`,
    );
    return [
      "  <url>",
      `    <loc>${origin}${page.path}</loc>`,
      ...alternates,
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${origin}${page.route}"/>`,
      "  </url>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

function robots(origin: string): string {
  return ["User-agent: *", "Allow: /", "Disallow: /api/", "", `Sitemap: ${origin}/sitemap.xml`, ""].join(
    "\n",
  );
}

export async function prerender(): Promise<number> {
  const started = Date.now();
  process.env.PRERENDER_SERVER_BUILD = "1";
  await build({
    configFile: join(ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { ssr: "src/entry-server.tsx", outDir: "../dist/server", emptyOutDir: true },
  });
  // The client build's index.html is the template; kept aside because the home page replaces it.
  const templateFile = join(SERVER, "template.html");
  const built = readFileSync(join(CLIENT, "index.html"), "utf8");
  const template = built.includes('<div id="root"></div>') ? built : readFileSync(templateFile, "utf8");
  writeFileSync(templateFile, template);
  const inlined = inlineStylesheet(template);

  const entry = (await import(pathToFileURL(join(SERVER, "entry-server.js")).href)) as ServerEntry;
  const preloads = pagePreloads(inlined.html);
  const screens = new Map(
    (await toolCatalog())
      .filter((tool) => tool.state === "available")
      .map((tool) => [toolPath(tool.id as ToolId), `tools/${tool.id}/screen.tsx`]),
  );
  const origin = siteOrigin();
  const pages = await sitePages();
  const postsFile = join(ROOT, "content/blog/metadata.json");
  const posts = existsSync(postsFile)
    ? metadataSchema.parse(JSON.parse(readFileSync(postsFile, "utf8"))).posts
    : [];

  for (const page of pages) {
    const data = blogData(page, posts);
    const rendered = await entry.renderPage(page.path, page.language, data);
    if ("redirect" in rendered && rendered.redirect)
      throw new Error(`${page.path} redirects to ${rendered.redirect}`);
    const head = rendered.head;
    if (!head) throw new Error(`${page.path} rendered no page title (usePageMeta)`);
    const file = join(CLIENT, pageFile(page.path));
    mkdirSync(dirname(file), { recursive: true });
    const links = preloads.linksFor({
      language: page.language,
      html: rendered.html,
      namespaces: rendered.namespaces,
      toolScreen: screens.get(page.route),
    });
    writeFileSync(
      file,
      fillTemplate(entry, inlined.html, page, { ...rendered, head, data, preloads: links }),
    );
  }
  writeFileSync(join(CLIENT, "sitemap.xml"), sitemap(pages, origin));
  writeFileSync(join(CLIENT, "robots.txt"), robots(origin));
  writeFileSync(join(CLIENT, "_headers"), staticHeadersFile(inlined.styleHash ? [inlined.styleHash] : []));
  console.log(`prerendered ${pages.length} pages for ${origin} in ${Date.now() - started} ms`);
  return pages.length;
}

if (import.meta.main) {
  await prerender();
  // The rendered app leaves timers behind (TanStack Query's 5-minute cache collection), which
  // would keep this process, and so `vite build`, waiting for 300 s after the last page.
  process.exit(0);
}
