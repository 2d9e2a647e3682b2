/**
 * The blog's content format (spec §3), shared by the client and the build-time prerendering:
 * `metadata.json` is `{ posts: [...] }`; each post's body is `posts/{slug}.md` beside it. Pure zod,
 * so Node scripts can import it too.
 */
import { z } from "zod";

export const attachmentSchema = z.object({
  /** An absolute http(s) address, or a path inside the content folder. */
  url: z.string().min(1),
  title: z.string().min(1),
  type: z.enum(["pdf", "video", "image"]),
});

export const postSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  title: z.string().min(1),
  description: z.string(),
  author: z.string(),
  /** Publication day, YYYY-MM-DD. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Minutes. */
  readingTime: z.number().int().positive(),
  tags: z.array(z.string().min(1)).default([]),
  /** Header and card image: an absolute http(s) address or a path inside the content folder. */
  image: z.string().min(1).optional(),
  attachments: z.array(attachmentSchema).optional(),
});

export const metadataSchema = z.object({ posts: z.array(postSchema) });

export type BlogPost = z.infer<typeof postSchema>;
export type Attachment = z.infer<typeof attachmentSchema>;

/** The blog's queries (the prerender embeds each page's data under the same key). */
export const postsQueryKey = (tag?: string) => ["blog", "posts", tag ?? null] as const;
export const postQueryKey = (slug: string) => ["blog", "post", slug] as const;

/** A day as YYYY-MM-DD in the local calendar (the reader's "today"). */
export function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Spec §9: posts dated `today` or earlier, newest first, only those with `tag` when given. */
export function publishedPosts(posts: readonly BlogPost[], today: string, tag?: string): BlogPost[] {
  return posts
    .filter((post) => post.date <= today && (tag === undefined || post.tags.includes(tag)))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}
