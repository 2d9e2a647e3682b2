/**
 * The head data of one article (spec §2 "Page metadata"), as a pure function so the client's
 * article page and the build-time prerendering (scripts/prerender.ts) give the same tags; and where
 * the blog's files are served, which both need for the post image. Node runs this file as it is.
 */
import { type BlogPost, postText } from "./post-schema.ts";

/**
 * Where the blog's files are read (spec §7): `metadata.json`, `posts/{slug}.md` and the images and
 * attachments. The Worker answers this path from the deployed copy of content/blog, or from the
 * content repository that BLOG_CONTENT_BASE names (worker/blog-content-route.ts), so the page only
 * ever talks to its own origin and the CSP stays `'self'`.
 */
export const CONTENT_BASE = "/content/blog";

/** The address of a content file: absolute http(s) addresses as they are, else under CONTENT_BASE. */
export function assetUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${CONTENT_BASE}/${path.replace(/^(\.\/|\/)+/, "")}`;
}

export interface PostHead {
  /** The post title plus the blog suffix; the site's brand is appended by the page template. */
  readonly title: string;
  readonly description: string;
  readonly author: string;
  /** ISO 8601 (midnight UTC of the post's day), for article:published_time. */
  readonly publishedTime: string;
  readonly tags: readonly string[];
  /** The tags as a comma-separated keywords list. */
  readonly keywords: string;
  /** Minutes. */
  readonly readingTime: number;
  /** The post image as written in metadata.json (a content path or an absolute address). */
  readonly image?: string;
  /** `<meta property>` tags of an article (Open Graph article namespace). */
  readonly articleTags: Readonly<Record<string, string>>;
}

/** `blogSuffix` is the blog's name in the page language ("Blog"), `language` the page's. */
export function postHead(post: BlogPost, blogSuffix: string, language: string): PostHead {
  const text = postText(post, language);
  const publishedTime = `${post.date}T00:00:00Z`;
  const keywords = post.tags.join(", ");
  return {
    title: `${text.title} - ${blogSuffix}`,
    description: text.description,
    author: post.author,
    publishedTime,
    tags: post.tags,
    keywords,
    readingTime: post.readingTime,
    ...(post.image === undefined ? {} : { image: post.image }),
    articleTags: {
      "article:author": post.author,
      "article:published_time": publishedTime,
      "article:tag": keywords,
      "article:reading_time": String(post.readingTime),
    },
  };
}
