import { assetUrl, CONTENT_BASE } from "./post-head";
import { type BlogPost, localDay, metadataSchema, publishedPosts } from "./post-schema";

export type { Attachment, BlogPost } from "./post-schema";
export { postQueryKey, postsQueryKey } from "./post-schema";
export { assetUrl, CONTENT_BASE };

export class PostNotFoundError extends Error {
  constructor(slug: string) {
    super(`Post not found: ${slug}`);
    this.name = "PostNotFoundError";
  }
}

export class PostBodyError extends Error {
  constructor(slug: string, cause?: unknown) {
    super(`Failed to load post content: ${slug}`, { cause });
    this.name = "PostBodyError";
  }
}

async function fetchOk(path: string, signal?: AbortSignal): Promise<Response> {
  const response = await fetch(`${CONTENT_BASE}/${path}`, { signal: signal ?? null });
  if (!response.ok) throw new Error(`GET ${CONTENT_BASE}/${path} answered ${response.status}`);
  return response;
}

/** Published posts (dated today or earlier), newest first, optionally only those with a tag. */
export async function loadPosts(tag?: string, signal?: AbortSignal): Promise<BlogPost[]> {
  const metadata = metadataSchema.parse(await (await fetchOk("metadata.json", signal)).json());
  return publishedPosts(metadata.posts, localDay(new Date()), tag);
}

/** A published post with its Markdown body; an unknown or future slug is "not found". */
export async function loadPost(
  slug: string,
  signal?: AbortSignal,
): Promise<{ post: BlogPost; body: string }> {
  const post = (await loadPosts(undefined, signal)).find((candidate) => candidate.slug === slug);
  if (!post) throw new PostNotFoundError(slug);
  try {
    return { post, body: await (await fetchOk(`posts/${post.slug}.md`, signal)).text() };
  } catch (error) {
    throw new PostBodyError(slug, error);
  }
}
