/**
 * content/blog against the blog's format and the spec's rules: metadata.json parses with the
 * client's own schema, every post has its body, the files it names exist (images ≤ 120 KB), the
 * published articles are 500–1000 words, attachments cover each type, a tutorials tag exists for
 * the footer, and one post is scheduled so the date filter has something to hide. Also the pure
 * parts of the blog: the date filter, the article head data and the Worker's file-path guard.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { TUTORIALS_TAG } from "../../client/src/config/paths.ts";
import { postHead } from "../../client/src/features/blog/post-head.ts";
import { type BlogPost, metadataSchema, publishedPosts } from "../../client/src/features/blog/post-schema.ts";
import { contentFilePath } from "../../worker/blog-content-types.ts";

const CONTENT = resolve(import.meta.dirname, "../../content/blog");
const { posts } = metadataSchema.parse(JSON.parse(readFileSync(join(CONTENT, "metadata.json"), "utf8")));
const today = new Date().toISOString().slice(0, 10);
const contentPath = (path: string) => join(CONTENT, path);
const isLocal = (path: string) => !/^https?:\/\//.test(path);

describe("content/blog", () => {
  it("has unique slugs, a body for every post and at least eight published articles", () => {
    expect(new Set(posts.map((post) => post.slug)).size).toBe(posts.length);
    for (const post of posts) expect(existsSync(contentPath(`posts/${post.slug}.md`)), post.slug).toBe(true);
    expect(publishedPosts(posts, today).length).toBeGreaterThanOrEqual(8);
  });

  it("gives every published article 500 to 1000 words and a reading time that matches", () => {
    for (const post of publishedPosts(posts, today)) {
      const words = readFileSync(contentPath(`posts/${post.slug}.md`), "utf8")
        .split(/\s+/)
        .filter(Boolean).length;
      expect(words, post.slug).toBeGreaterThanOrEqual(500);
      expect(words, post.slug).toBeLessThanOrEqual(1000);
      expect(post.readingTime, post.slug).toBe(Math.ceil(words / 220));
    }
  });

  it("names only files that exist and can be served; images stay under 120 KB", () => {
    const bodyImages = posts.flatMap((post) =>
      [
        ...readFileSync(contentPath(`posts/${post.slug}.md`), "utf8").matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g),
      ].map((match) => match[1] ?? ""),
    );
    const files = [
      ...posts.flatMap((post) => (post.image ? [post.image] : [])),
      ...posts.flatMap((post) => (post.attachments ?? []).map((attachment) => attachment.url)),
      ...bodyImages,
    ].filter(isLocal);
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      expect(existsSync(contentPath(file)), file).toBe(true);
      expect(contentFilePath(file), file).not.toBeNull();
      if (/\.(webp|png|jpe?g)$/.test(file))
        expect(statSync(contentPath(file)).size, file).toBeLessThanOrEqual(120 * 1024);
    }
  });

  it("has attachments of each type, the footer's tutorials tag and a post dated in the future", () => {
    const types = new Set(
      posts.flatMap((post) => (post.attachments ?? []).map((attachment) => attachment.type)),
    );
    expect([...types].sort()).toEqual(["image", "pdf", "video"]);
    expect(publishedPosts(posts, today, TUTORIALS_TAG).length).toBeGreaterThan(3);
    const scheduled = posts.filter((post) => post.date > today);
    expect(scheduled.length).toBeGreaterThan(0);
    for (const post of scheduled)
      expect(publishedPosts(posts, today).map((p) => p.slug)).not.toContain(post.slug);
  });
});

const post = (slug: string, date: string, tags: string[]): BlogPost => ({
  slug,
  title: slug,
  description: `About ${slug}`,
  author: "Team",
  date,
  readingTime: 4,
  tags,
  language: "en",
});

describe("publishedPosts", () => {
  const all = [
    post("old", "2026-01-02", ["a"]),
    post("today", "2026-03-04", ["a", "b"]),
    post("later", "2026-03-05", ["a"]),
  ];
  it("keeps posts dated today or earlier, newest first, and filters by tag", () => {
    expect(publishedPosts(all, "2026-03-04").map((p) => p.slug)).toEqual(["today", "old"]);
    expect(publishedPosts(all, "2026-03-04", "b").map((p) => p.slug)).toEqual(["today"]);
    expect(publishedPosts(all, "2026-03-04", "none")).toEqual([]);
  });
});

describe("postHead", () => {
  it("gives the article's head data", () => {
    const head = postHead(
      { ...post("merge", "2026-11-09", ["tutorials", "pdf"]), image: "images/a.webp" },
      "Blog",
      "en",
    );
    expect(head).toMatchObject({
      title: "merge - Blog",
      description: "About merge",
      author: "Team",
      publishedTime: "2026-11-09T00:00:00Z",
      tags: ["tutorials", "pdf"],
      keywords: "tutorials, pdf",
      readingTime: 4,
      image: "images/a.webp",
    });
    expect(head.articleTags["article:published_time"]).toBe("2026-11-09T00:00:00Z");
  });
});

describe("contentFilePath (the Worker's guard on /content/blog/*)", () => {
  it("accepts plain content files and refuses traversal, hidden files and unsafe types", () => {
    expect(contentFilePath("posts/merge.md")?.type).toMatch(/^text\/markdown/);
    expect(contentFilePath("images/a.webp")?.type).toBe("image/webp");
    for (const bad of [
      "../wrangler.toml",
      "posts/../../x.md",
      ".env",
      "a//b.md",
      "page.html",
      "x.svg",
      "posts/a.md/",
      "",
    ])
      expect(contentFilePath(bad), bad).toBeNull();
  });
});
