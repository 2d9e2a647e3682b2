/**
 * The blog in Chromium against the running site, content served by the Worker from content/blog:
 * the list (prerendered, spinner when reached in the app, order, tags per card, card images), tag pages, an article (meta, localised
 * date, header image, sanitised body, attachments, share links, copy-link toast), the scheduled
 * post kept hidden, and the error states with a missing post or a failing request.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { metadataSchema, postText, publishedPosts } from "../../client/src/features/blog/post-schema.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const siteUrl = inject("siteUrl");
const openPage = chromiumPages();
const t = translator("en");
const { posts } = metadataSchema.parse(
  JSON.parse(readFileSync(join(ROOT, "content/blog/metadata.json"), "utf8")),
);
const now = new Date();
const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
const published = publishedPosts(posts, today);
const scheduled = posts.filter((post) => post.date > today);
const article = published.find((post) => post.attachments?.some((a) => a.type === "video") && post.image);
if (!article || scheduled.length === 0) throw new Error("content/blog lacks the posts these tests need");

/** A page that also fails on any CSP violation reported in the console. */
async function blogPage(): Promise<{ page: Page; cspErrors: string[] }> {
  const page = await openPage();
  const cspErrors: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspErrors.push(message.text());
  });
  return { page, cspErrors };
}

/** Follows the header's Blog link, an in-app navigation (the page's data is not prerendered). */
async function openBlogFromHeader(page: Page): Promise<void> {
  await page
    .getByRole("navigation", { name: t("nav.main") })
    .getByRole("link", { name: t("nav.blog") })
    .click();
  await page.waitForURL(`${siteUrl}/blog`);
}

const cardTitles = (page: Page) => page.getByTestId("post-card").locator(".post-card__title").allInnerTexts();

describe("blog list", () => {
  it("is served with the published posts; reached from another page it shows a spinner, then the posts", async () => {
    // Prerendered: the HTML itself lists the published posts and none of the scheduled ones.
    const html = await (await fetch(`${siteUrl}/blog`)).text();
    expect(html.match(/data-testid="post-card"/g)?.length).toBe(published.length);
    for (const post of published) expect(html).toContain(`/blog/${post.slug}"`);
    for (const post of scheduled) expect(html).not.toContain(`/blog/${post.slug}"`);

    const { page, cspErrors } = await blogPage();
    await page.route("**/content/blog/metadata.json", async (route) => {
      await new Promise((done) => setTimeout(done, 1000));
      await route.continue();
    });
    await page.goto(siteUrl);
    await openBlogFromHeader(page);
    await page.getByTestId("spinner").first().waitFor();
    await page.getByTestId("post-card").first().waitFor();
    expect(await cardTitles(page)).toEqual(published.map((post) => post.title));
    for (const post of scheduled) expect(await page.getByText(post.title).count()).toBe(0);
    const tagCounts = await page
      .getByTestId("post-card")
      .evaluateAll((cards) => cards.map((card) => card.querySelectorAll(".tag").length));
    expect(tagCounts).toEqual(published.map((post) => Math.min(2, post.tags.length)));
    expect(tagCounts.some((count, i) => count < (published[i]?.tags.length ?? 0))).toBe(true);
    const image = page.getByTestId("post-card").first().locator("img");
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect((await image.boundingBox())?.height).toBe(240);
    expect(cspErrors).toEqual([]);
  });

  it("filters by tag from a card's tag link, with the tag title and Back to All Posts", async () => {
    const { page } = await blogPage();
    await page.goto(`${siteUrl}/blog`);
    await page.getByTestId("post-card").first().waitFor();
    await page.getByRole("link", { name: "#tutorials" }).first().click();
    await page.waitForURL(`${siteUrl}/blog/tag/tutorials`);
    await page
      .getByRole("heading", { level: 1, name: t("pages.blog.tagTitle", { tag: "tutorials" }) })
      .waitFor();
    await page.getByTestId("post-card").first().waitFor();
    expect(await cardTitles(page)).toEqual(
      publishedPosts(posts, today, "tutorials").map((post) => post.title),
    );
    await page.getByRole("link", { name: t("pages.blog.backToAll") }).click();
    await page.waitForURL(`${siteUrl}/blog`);
    await page.getByRole("heading", { level: 1, name: t("pages.blog.heading") }).waitFor();
  });

  it("says so when no post has the tag", async () => {
    const { page } = await blogPage();
    await page.goto(`${siteUrl}/blog/tag/no-such-tag`);
    await page.getByText(t("errors.noPostsForTag", { tag: "no-such-tag" })).waitFor();
  });

  it("shows Failed to load blog posts when the list cannot be fetched, and keeps posts already shown", async () => {
    const { page } = await blogPage();
    let requests = 0;
    await page.route("**/content/blog/metadata.json", (route) => {
      requests += 1;
      return route.fulfill({ status: 500, body: "down" });
    });
    await page.goto(siteUrl);
    await openBlogFromHeader(page);
    await page.getByText(t("errors.blogLoadFailed")).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId("post-card").count()).toBe(0);

    // The prerendered list refetches on load; when every attempt (1 + 3 retries) fails, it stays.
    requests = 0;
    await page.goto(`${siteUrl}/blog`);
    await expect.poll(() => requests, { timeout: 60_000 }).toBe(4);
    await page.waitForTimeout(500);
    expect(await page.getByTestId("post-card").count()).toBe(published.length);
    expect(await page.getByText(t("errors.blogLoadFailed")).count()).toBe(0);
  });
});

describe("blog article", () => {
  it("renders the post: header image, meta, sanitised body, attachments, tags and share links", async () => {
    const { page, cspErrors } = await blogPage();
    await page.goto(`${siteUrl}/blog/${article.slug}`);
    await page.getByRole("heading", { level: 1, name: article.title }).waitFor();
    await page
      .getByText(t("pages.blog.byAuthor", { author: article.author }))
      .first()
      .waitFor();
    const [year, month, day] = article.date.split("-").map(Number);
    const date = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" }).format(
      new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)),
    );
    expect(await page.locator("time").first().innerText()).toBe(date);
    await page
      .getByText(t("pages.blog.readingTime", { minutes: article.readingTime }))
      .first()
      .waitFor();

    const header = page.locator(".article__image");
    await expect
      .poll(() => header.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    expect((await header.boundingBox())?.height).toBe(400);

    // The body: Markdown rendered (sections, a link to a tool) in the article's own container.
    const body = page.locator(".article__body");
    expect(await body.locator("h2").count()).toBeGreaterThan(2);
    expect(await body.locator('a[href="/tools/merge-pdf"]').count()).toBeGreaterThan(0);
    expect(await body.locator("script, iframe, [onerror], [onload]").count()).toBe(0);

    const attachments = page.locator(".attachments a");
    expect(await attachments.count()).toBe(article.attachments?.length);
    for (const link of await attachments.all()) {
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await link.locator("svg").count()).toBe(1);
    }
    const video = article.attachments?.find((a) => a.type === "video");
    const videoResponse = await page.request.get(`${siteUrl}/content/blog/${video?.url}`);
    expect(videoResponse.headers()["content-type"]).toBe("video/webm");
    expect((await videoResponse.body()).subarray(0, 4).toString("hex")).toBe("1a45dfa3");

    for (const tag of article.tags)
      expect(await page.locator(`.tag-list a[href="/blog/tag/${tag}"]`).innerText()).toBe(`#${tag}`);

    const url = `${siteUrl}/blog/${article.slug}`;
    for (const name of ["shareTwitter", "shareFacebook", "shareLinkedIn"]) {
      const share = page.getByRole("link", { name: t(`pages.post.${name}`) });
      expect(await share.getAttribute("href")).toContain(encodeURIComponent(url));
      expect(await share.getAttribute("target")).toBe("_blank");
      expect(await share.getAttribute("rel")).toBe("noopener noreferrer");
    }
    const mail = new URL(
      (await page.getByRole("link", { name: t("pages.post.shareEmail") }).getAttribute("href")) ?? "",
    );
    expect(mail.protocol).toBe("mailto:");
    expect(mail.searchParams.get("subject")).toBe(article.title);
    expect(mail.searchParams.get("body")).toBe(`${article.title}\n\n${article.description}\n\n${url}`);

    expect(await page.title()).toContain(article.title);
    expect(await page.locator('meta[property="article:author"]').getAttribute("content")).toBe(
      article.author,
    );
    expect(await page.locator('meta[property="article:tag"]').getAttribute("content")).toBe(
      article.tags.join(", "),
    );
    expect(cspErrors).toEqual([]);
  });

  it("copies the link and shows the toast for 3 seconds", async () => {
    const { page } = await blogPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${siteUrl}/blog/${article.slug}`);
    await page.getByRole("button", { name: t("pages.post.copyLink") }).click();
    const toast = page.getByTestId("toast").filter({ hasText: t("pages.post.linkCopied") });
    await toast.waitFor();
    expect(await toast.innerText()).toContain(t("pages.post.linkCopiedDescription"));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${siteUrl}/blog/${article.slug}`);
    await page.waitForTimeout(2000);
    expect(await toast.count()).toBe(1);
    await toast.waitFor({ state: "detached", timeout: 3000 });
  });

  it("dates the article in the interface language", async () => {
    const { page } = await blogPage();
    await page.goto(`${siteUrl}/de/blog/${article.slug}`);
    await page.getByRole("heading", { level: 1, name: postText(article, "de").title }).waitFor();
    const [year, month, day] = article.date.split("-").map(Number);
    const date = new Intl.DateTimeFormat("de", { dateStyle: "medium", timeZone: "UTC" }).format(
      new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1)),
    );
    expect(await page.locator("time").first().innerText()).toBe(date);
  });

  it("in Hindi: titles and excerpts translated, the English article and tags marked lang=en", async () => {
    const { page } = await blogPage();
    await page.goto(`${siteUrl}/hi/blog`);
    const hindi = published.map((post) => postText(post, "hi"));
    // Every post has its Hindi title and excerpt, and nothing on the cards is English unmarked.
    expect(hindi.every((text) => text.language === "hi")).toBe(true);
    expect(await cardTitles(page)).toEqual(hindi.map((text) => text.title));
    expect(await page.locator(".post-card__description").allInnerTexts()).toEqual(
      hindi.map((text) => text.description),
    );
    const marks = await page.getByTestId("post-card").evaluateAll((cards) =>
      cards.map((card) => ({
        title: card.querySelector(".post-card__title")?.closest("[lang]")?.getAttribute("lang"),
        tags: card.querySelector(".tag-list")?.getAttribute("lang"),
      })),
    );
    expect(marks).toEqual(published.map(() => ({ title: "hi", tags: "en" })));

    await page
      .getByRole("link", { name: postText(article, "hi").title })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: postText(article, "hi").title }).waitFor();
    expect(await page.locator("h1").getAttribute("lang")).toBeNull();
    expect(await page.locator(".article__body").getAttribute("lang")).toBe("en");
    expect(await page.locator(".article .tag-list").getAttribute("lang")).toBe("en");
    expect(await page.title()).toContain(postText(article, "hi").title);
  });

  it("keeps the scheduled post and unknown slugs out: Post not found, with a back link", async () => {
    const { page } = await blogPage();
    for (const slug of [scheduled[0]?.slug, "no-such-post"]) {
      await page.goto(`${siteUrl}/blog/${slug}`);
      await page.getByTestId("post-error").getByText(t("errors.postNotFound")).waitFor();
      expect(await page.getByRole("link", { name: t("pages.post.back") }).count()).toBe(1);
    }
  });

  it("shows Failed to load post content when the body cannot be fetched", async () => {
    const { page } = await blogPage();
    await page.route(`**/content/blog/posts/${article.slug}.md`, (route) =>
      route.fulfill({ status: 500, body: "down" }),
    );
    // Opened from the list, so the article's own requests load it (a prerendered one has it).
    await page.goto(`${siteUrl}/blog`);
    await page.getByRole("link", { name: article.title, exact: true }).first().click();
    await page.getByText(t("pages.post.loading")).waitFor();
    await page.getByText(t("errors.postLoadFailed")).waitFor({ timeout: 60_000 });
  });
});

describe("blog bundles", () => {
  it("loads marked and DOMPurify with the article route only, never with the entry (home page)", () => {
    const chunks = JSON.parse(readFileSync(join(ROOT, "dist/client-modules.json"), "utf8")) as {
      entry: boolean;
      modules: string[];
    }[];
    const has = (chunk: { modules: string[] }, pattern: RegExp) => chunk.modules.some((m) => pattern.test(m));
    const markdownChunks = chunks.filter((chunk) => has(chunk, /node_modules\/(marked|dompurify)\//));
    expect(markdownChunks.length).toBeGreaterThan(0);
    for (const chunk of markdownChunks) expect(chunk.entry).toBe(false);
    const list = chunks.find((chunk) => has(chunk, /features\/blog\/blog-list-page\.tsx$/));
    expect(list && has(list, /node_modules\/(marked|dompurify)\//)).toBe(false);
  });
});
