import type { ToolId } from "../lib/contract";

/** Every route path of the app (spec §2), defined once; links and the router both use these. */
export const PATHS = {
  home: "/",
  about: "/about",
  tools: "/tools",
  imageTools: "/tools/image-tools",
  blog: "/blog",
  contact: "/contact",
  privacy: "/privacy-policy",
  terms: "/terms-of-service",
  premium: "/premium",
} as const;

/** Router patterns for the routes with parameters. */
export const ROUTE_PATTERNS = {
  tool: "/tools/:toolId",
  blogTag: "/blog/tag/:tag",
  blogPost: "/blog/:slug",
} as const;

export const toolPath = (id: ToolId) => `/tools/${id}`;
export const blogTagPath = (tag: string) => `/blog/tag/${encodeURIComponent(tag)}`;
export const blogPostPath = (slug: string) => `/blog/${encodeURIComponent(slug)}`;

/** Section anchors on the home page. */
export const HOME_SECTIONS = { features: "features", promises: "promises" } as const;
export const homeSectionPath = (section: keyof typeof HOME_SECTIONS) => `/#${HOME_SECTIONS[section]}`;

/** The tag the footer's Resources group links to. */
export const TUTORIALS_TAG = "tutorials";
