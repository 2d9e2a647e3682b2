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

/** A post's title and card text in one language. */
export const postTextSchema = z.object({ title: z.string().min(1), description: z.string() });

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
  /** The language the post is written in (its title, description and body). */
  language: z.string().min(2).default("en"),
  /** Its title and description in other languages, by language code. */
  translations: z.record(z.string(), postTextSchema).optional(),
});

export const metadataSchema = z.object({ posts: z.array(postSchema) });

export type BlogPost = z.infer<typeof postSchema>;
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * The title and description of a post to show on a page in `language`: its translation when it has
 * one, else its own, with the language they are written in (the page marks text that is not in its
 * own language with `lang`, so a screen reader reads it with the right voice).
 */
export function postText(
  post: BlogPost,
  language: string,
): { title: string; description: string; language: string } {
  const translated = post.translations?.[language];
  return translated
    ? { ...translated, language }
    : { title: post.title, description: post.description, language: post.language };
}

/** The `lang` attribute for text written in `textLanguage` on a page in `pageLanguage`. */
export function langUnless(textLanguage: string, pageLanguage: string): { lang?: string } {
  return textLanguage === pageLanguage ? {} : { lang: textLanguage };
}

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
