/**
 * Every page the site prerenders and lists in sitemap.xml: each route of client/src/config/paths.ts,
 * each tool, and each published blog post and tag (content/blog/metadata.json, when it exists),
 * unprefixed (shown in English) and under every language prefix.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { blogPostPath, blogTagPath, PATHS, toolPath } from "../client/src/config/paths.ts";
import { FALLBACK_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from "../contract/languages.ts";
import type { ToolId } from "../contract/tools.ts";
import { toolCatalog } from "./tool-registry.ts";

const ROOT = resolve(import.meta.dirname, "..");

export interface SitePage {
  /** The address ("/de/tools/merge-pdf"). */
  path: string;
  /** The route without the language prefix ("/tools/merge-pdf"). */
  route: string;
  language: LanguageCode;
}

interface BlogPostFields {
  slug: string;
  date: string;
  tags?: string[];
}

/** Published posts (dated today or earlier) of content/blog/metadata.json; none when it is absent. */
export function publishedPosts(root = ROOT, today = new Date().toISOString().slice(0, 10)): BlogPostFields[] {
  const file = join(root, "content/blog/metadata.json");
  if (!existsSync(file)) return [];
  const { posts } = JSON.parse(readFileSync(file, "utf8")) as { posts?: BlogPostFields[] };
  return (posts ?? []).filter((post) => typeof post.slug === "string" && post.date <= today);
}

/** The routes without language prefix, in sitemap order. */
export async function siteRoutes(root = ROOT): Promise<string[]> {
  const tools = await toolCatalog(root);
  const posts = publishedPosts(root);
  const tags = [...new Set(posts.flatMap((post) => post.tags ?? []))].sort();
  return [
    ...Object.values(PATHS),
    ...tools.map((tool) => toolPath(tool.id as ToolId)),
    ...posts.map((post) => blogPostPath(post.slug)),
    ...tags.map((tag) => blogTagPath(tag)),
  ];
}

/** The address of a route under a language prefix (null: unprefixed). */
export function localizedPath(route: string, language: LanguageCode | null): string {
  if (!language) return route;
  return route === "/" ? `/${language}` : `/${language}${route}`;
}

export async function sitePages(root = ROOT): Promise<SitePage[]> {
  const routes = await siteRoutes(root);
  return routes.flatMap((route) => [
    { path: route, route, language: FALLBACK_LANGUAGE },
    ...LANGUAGE_CODES.map((language) => ({ path: localizedPath(route, language), route, language })),
  ]);
}
