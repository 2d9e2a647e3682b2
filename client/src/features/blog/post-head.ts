/**
 * The head data of one article (spec §2 "Page metadata"), as a pure function so the client's
 * article page and the build-time prerendering give the same tags.
 */
import type { BlogPost } from "./post-schema.ts";

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

/** `blogSuffix` is the blog's name in the page language ("Blog"). */
export function postHead(post: BlogPost, blogSuffix: string): PostHead {
  const publishedTime = `${post.date}T00:00:00Z`;
  const keywords = post.tags.join(", ");
  return {
    title: `${post.title} - ${blogSuffix}`,
    description: post.description,
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
