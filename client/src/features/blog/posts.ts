import { z } from "zod";

/**
 * Blog content lives in the repository under content/blog/: `metadata.json` ({ posts: [...] }),
 * one Markdown body per post in `posts/{slug}.md`, and images or attachments anywhere below.
 * Everything is bundled at build time, so reading a post never calls another site.
 */
const metadataFiles = import.meta.glob<{ default: unknown }>("../../../../content/blog/metadata.json");
const bodyFiles = import.meta.glob<string>("../../../../content/blog/posts/*.md", {
  query: "?raw",
  import: "default",
});
const assetFiles = import.meta.glob<string>(
  "../../../../content/blog/**/*.{png,jpg,jpeg,webp,gif,svg,pdf,mp4,webm}",
  { query: "?url", import: "default", eager: true },
);
const CONTENT_BASE = "../../../../content/blog/";

const attachmentSchema = z.object({
  url: z.string(),
  title: z.string(),
  type: z.enum(["pdf", "video", "image"]),
});

const postSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  title: z.string(),
  description: z.string(),
  author: z.string(),
  /** Publication day, YYYY-MM-DD. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  readingTime: z.number().int().positive(),
  tags: z.array(z.string()).default([]),
  image: z.string().optional(),
  attachments: z.array(attachmentSchema).optional(),
});

export type BlogPost = z.infer<typeof postSchema>;
export type Attachment = z.infer<typeof attachmentSchema>;

const metadataSchema = z.object({ posts: z.array(postSchema) });

/** The address of a post asset: absolute http(s) addresses as they are, else the bundled file. */
export function assetUrl(path: string): string | null {
  if (/^https?:\/\//i.test(path)) return path;
  return assetFiles[`${CONTENT_BASE}${path.replace(/^\.?\//, "")}`] ?? null;
}

function today(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Published posts (dated today or earlier), newest first, optionally only those with a tag. */
export async function loadPosts(tag?: string): Promise<BlogPost[]> {
  const load = metadataFiles[`${CONTENT_BASE}metadata.json`];
  if (!load) return [];
  const metadata = metadataSchema.parse((await load()).default);
  const cutoff = today();
  return metadata.posts
    .filter((post) => post.date <= cutoff)
    .filter((post) => !tag || post.tags.includes(tag))
    .sort((a, b) => b.date.localeCompare(a.date));
}

export class PostNotFoundError extends Error {
  constructor(slug: string) {
    super(`Post not found: ${slug}`);
    this.name = "PostNotFoundError";
  }
}

export class PostBodyError extends Error {
  constructor(slug: string) {
    super(`Failed to load post content: ${slug}`);
    this.name = "PostBodyError";
  }
}

/** A published post with its Markdown body. */
export async function loadPost(slug: string): Promise<{ post: BlogPost; body: string }> {
  const post = (await loadPosts()).find((candidate) => candidate.slug === slug);
  if (!post) throw new PostNotFoundError(slug);
  const load = bodyFiles[`${CONTENT_BASE}posts/${slug}.md`];
  if (!load) throw new PostBodyError(slug);
  try {
    return { post, body: await load() };
  } catch {
    throw new PostBodyError(slug);
  }
}
