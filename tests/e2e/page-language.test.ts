/**
 * The address decides the page's language (issue 30 §3): a visit to /ta leaves the English addresses
 * English; the stored choice only sends `/` on; an unknown address answers 404 with a page in the
 * visitor's language instead of the home page.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { LANGUAGE_COOKIE } from "../../contract/index.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

const pageLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);
const heading = (page: Page) => page.locator("h1").first().textContent();

describe("the page's language", () => {
  it("is the address's: after /ta, the English addresses stay English and / goes to /ta", async () => {
    const en = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/ta`);
    expect(await pageLanguage(page)).toBe("ta");
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === LANGUAGE_COOKIE)?.value).toBe("ta");

    await page.goto(`${siteUrl}/tools/compress-pdf`);
    expect(await pageLanguage(page)).toBe("en");
    expect(await heading(page)).toBe(en("compress-pdf:name"));
    await page.goto(`${siteUrl}/blog/tag/tutorials`);
    expect(await pageLanguage(page)).toBe("en");

    // A new visit to / goes to the stored language.
    await page.goto(`${siteUrl}/`);
    expect(new URL(page.url()).pathname).toBe("/ta");
    expect(await pageLanguage(page)).toBe("ta");
    await page.context().close();
  });

  it("sends a first visit to / by the browser's languages, and keeps English at /", async () => {
    const page = await newPage();
    await page.setExtraHTTPHeaders({ "Accept-Language": "hi-IN,hi;q=0.9,en;q=0.5" });
    await page.goto(`${siteUrl}/`);
    expect(new URL(page.url()).pathname).toBe("/hi");
    expect(await pageLanguage(page)).toBe("hi");
    await page.context().close();

    const english = await newPage();
    await english.goto(`${siteUrl}/`);
    expect(new URL(english.url()).pathname).toBe("/");
    expect(await pageLanguage(english)).toBe("en");
    await english.context().close();
  });
});

describe("an unknown address", () => {
  it("answers 404 with a page in the address's language, or else the visitor's", async () => {
    const page = await newPage();
    const german = await page.goto(`${siteUrl}/de/no-such-page`);
    expect(german?.status()).toBe(404);
    expect(await pageLanguage(page)).toBe("de");
    expect(await heading(page)).toBe(translator("de")("pages.notFound.title"));
    expect(new URL(page.url()).pathname).toBe("/de/no-such-page");
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");

    // Tamil chosen before: an address without a language is answered in Tamil.
    await page.goto(`${siteUrl}/ta/tools`);
    const tamil = await page.goto(`${siteUrl}/no/such/page`);
    expect(tamil?.status()).toBe(404);
    expect(await pageLanguage(page)).toBe("ta");
    const ta = translator("ta");
    expect(await heading(page)).toBe(ta("pages.notFound.title"));
    // Its link home goes to the Tamil home page.
    await page.getByRole("link", { name: ta("pages.notFound.home") }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/ta");
    await page.context().close();
  });

  it("holds the not-found text before any script runs, and a missing file is a plain 404", async () => {
    const response = await fetch(`${siteUrl}/fr/tools/no-such-tool`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain(translator("fr")("pages.notFound.text"));
    expect(html).not.toContain('rel="canonical"');
    const file = await fetch(`${siteUrl}/static/dist/no-such-file.js`);
    expect(file.status).toBe(404);
    expect(file.headers.get("content-type") ?? "").not.toContain("text/html");
  });
});
