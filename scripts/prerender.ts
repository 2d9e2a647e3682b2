/**
 * Renders every page (scripts/site-pages.ts) to static HTML after the client build, so the Worker
 * serves real content that the app then hydrates (client/src/main.tsx). Builds the server entry
 * (client/src/entry-server.tsx) with Vite's SSR build, fills dist/client/index.html's template per
 * page (title, head tags, <html lang>, the rendered #root) and writes `<path>.html` (served at
 * `<path>` by the assets' default html_handling), plus sitemap.xml and robots.txt.
 * Run by `vite build` (vite.config.ts); `node scripts/prerender.ts` redoes it on an existing build.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "vite";
import { assetUrl, postHead as blogPostHead } from "../client/src/features/blog/post-head.ts";
import type { BlogPost } from "../client/src/features/blog/post-schema.ts";
import type { PageHead, PageHeadInput } from "../client/src/lib/page-head.ts";
import { LANGUAGE_CODES, type LanguageCode } from "../contract/languages.ts";
import { siteOrigin } from "./site-origin.ts";
import { localizedPath, type SitePage, sitePages } from "./site-pages.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT = join(ROOT, "dist/client");
const SERVER = join(ROOT, "dist/server");

interface ServerEntry {
  renderPage(
    pathname: string,
    language: LanguageCode,
  ): Promise<{ html: string; head: PageHead | null; namespaces: string[]; redirect?: string }>;
  pageHead(input: PageHeadInput): PageHead;
  headHtml(head: PageHead): string;
}

/** The file serving a path: "/" → index.html, "/de/tools" → de/tools.html. */
export function pageFile(path: string): string {
  return path === "/" ? "index.html" : `${decodeURIComponent(path.slice(1))}.html`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A blog post's head from its metadata, the same tags as the article page gives once the post has
 * loaded (features/blog/post-head.ts, the page's title template and the blog's name in the language).
 */
function postHead(
  entry: ServerEntry,
  post: BlogPost,
  page: SitePage,
  origin: string,
  brand: string,
): PageHead {
  const strings = JSON.parse(readFileSync(join(ROOT, `locales/${page.language}/common.json`), "utf8")) as {
    app: { titleTemplate: string };
    pages: { blog: { title: string } };
  };
  const head = blogPostHead(post, strings.pages.blog.title);
  return entry.pageHead({
    title: strings.app.titleTemplate.replace("{{page}}", head.title).replace("{{name}}", brand),
    description: head.description,
    brand,
    pathname: page.path,
    origin,
    type: "article",
    image: head.image === undefined ? undefined : assetUrl(head.image),
    keywords: head.keywords,
    extra: head.articleTags,
  });
}

function fillTemplate(
  entry: ServerEntry,
  template: string,
  page: SitePage,
  rendered: { html: string; head: PageHead; namespaces: string[] },
): string {
  const root = [
    `<div id="root" data-path="${escapeAttribute(page.path)}" data-language="${page.language}"`,
    ` data-namespaces="${escapeAttribute(rendered.namespaces.join(" "))}">${rendered.html}</div>`,
  ].join("");
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${page.language}"`)
    .replace(/<title>[^<]*<\/title>/, entry.headHtml(rendered.head))
    .replace('<div id="root"></div>', () => root);
}

/** The page's head and language around an empty #root (the browser renders it). */
function shell(entry: ServerEntry, template: string, page: SitePage, head: PageHead): string {
  return template
    .replace(/<html lang="[^"]*"/, `<html lang="${page.language}"`)
    .replace(/<title>[^<]*<\/title>/, entry.headHtml(head));
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

  const entry = (await import(pathToFileURL(join(SERVER, "entry-server.js")).href)) as ServerEntry;
  const origin = siteOrigin();
  const pages = await sitePages();
  const postsFile = join(ROOT, "content/blog/metadata.json");
  const posts = existsSync(postsFile)
    ? ((JSON.parse(readFileSync(postsFile, "utf8")) as { posts?: BlogPost[] }).posts ?? [])
    : [];
  const brandOf = (head: PageHead | null) => head?.tags.find((t) => t.attributes.property === "og:site_name");

  for (const page of pages) {
    const post = posts.find((p) => page.route === `/blog/${encodeURIComponent(p.slug)}`);
    const rendered = await entry.renderPage(page.path, page.language).catch((error: unknown) => {
      // A post's page may need the browser; its head still comes from metadata.json, and the
      // browser renders the body (an empty #root is never hydrated).
      if (!post) throw error;
      console.warn(`${page.path}: served unrendered (${String(error)})`);
      return { html: "", head: null, namespaces: [] };
    });
    if ("redirect" in rendered && rendered.redirect)
      throw new Error(`${page.path} redirects to ${rendered.redirect}`);
    const brand = brandOf(rendered.head)?.attributes.content ?? "";
    const head = post ? postHead(entry, post, page, origin, brand) : rendered.head;
    if (!head) throw new Error(`${page.path} rendered no page title (usePageMeta)`);
    const file = join(CLIENT, pageFile(page.path));
    mkdirSync(dirname(file), { recursive: true });
    const filled = rendered.html
      ? fillTemplate(entry, template, page, { ...rendered, head })
      : shell(entry, template, page, head);
    writeFileSync(file, filled);
  }
  writeFileSync(join(CLIENT, "sitemap.xml"), sitemap(pages, origin));
  writeFileSync(join(CLIENT, "robots.txt"), robots(origin));
  console.log(`prerendered ${pages.length} pages for ${origin} in ${Date.now() - started} ms`);
  return pages.length;
}

if (import.meta.main) {
  await prerender();
  // The rendered app leaves timers behind (TanStack Query's 5-minute cache collection), which
  // would keep this process, and so `vite build`, waiting for 300 s after the last page.
  process.exit(0);
}
