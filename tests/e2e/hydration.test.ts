/**
 * React hydrates the prerendered HTML without a mismatch or error where the browser differs from
 * the prerender: text the prerender and the browser word differently (the footer's year, a post's
 * date) hydrates as sent and changes after, and a visitor's stored language does not change the
 * address's page. Controls that need the app are sent disabled and busy, so a click before hydration
 * is visibly not taken, and work once it is done. (Every route × language is hydrated without a
 * single console or React error in routes.test.ts, in the same load as its other checks.)
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sitePages } from "../../scripts/site-pages.ts";
import { launchChromium } from "./browser.ts";

const siteUrl = inject("siteUrl");
const pages = await sitePages();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Keeps the <main> element as parsed, before any script runs: hydration keeps it, a fresh render replaces it. */
const RECORD_PARSED_MAIN = () => {
  document.addEventListener("readystatechange", () => {
    if (document.readyState === "interactive")
      (window as unknown as { parsedMain: Element | null }).parsedMain = document.querySelector("main");
  });
};

/** Every console error and uncaught error of a page, from now on. */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return errors;
}

/** Loads a page and waits until it has hydrated (app/page-ready.tsx marks <html> with its path). */
async function hydrate(page: Page, path: string): Promise<void> {
  await page.goto(`${siteUrl}${path}`);
  await page.waitForFunction((shown) => document.documentElement.dataset.pageReady === shown, path, {
    timeout: 30_000,
  });
}

const keptParsedMain = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { parsedMain: Element | null }).parsedMain === document.querySelector("main"),
  );

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: "en-US" });
  await context.addInitScript(RECORD_PARSED_MAIN);
  return context;
}

describe("text the browser words differently", () => {
  it("the footer's year: the page's when hydrating, the visitor's clock's after", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date("2041-06-01T12:00:00Z"));
    const errors = recordErrors(page);
    try {
      const html = await (await fetch(`${siteUrl}/about`)).text();
      expect(html).not.toContain("2041");
      await hydrate(page, "/about");
      await expect.poll(() => page.locator(".site-footer__bottom p").first().innerText()).toContain("2041");
      expect(errors).toEqual([]);
      expect(await keptParsedMain(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("a post's date: worded by the browser after hydration", async () => {
    const post = pages.find((page) => /^\/hi\/blog\/[^/]+$/.test(page.path));
    if (!post) throw new Error("no blog post in Hindi to check");
    const context = await newContext();
    const page = await context.newPage();
    const errors = recordErrors(page);
    try {
      await hydrate(page, post.path);
      const time = page.locator(".post-meta time").first();
      const iso = (await time.getAttribute("datetime")) ?? "";
      const browserWording = await page.evaluate(
        (date) =>
          new Intl.DateTimeFormat("hi", { dateStyle: "medium", timeZone: "UTC" }).format(
            new Date(`${date}T00:00:00Z`),
          ),
        iso,
      );
      await expect.poll(() => time.innerText()).toBe(browserWording);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a visitor who chose German on an unprefixed page: hydrated and kept in English, the address's language", async () => {
    const context = await newContext();
    await context.addInitScript(() => {
      if (!localStorage.getItem("i18nextLng")) localStorage.setItem("i18nextLng", "de");
    });
    const page = await context.newPage();
    const errors = recordErrors(page);
    try {
      const english = /<h1[^>]*>([^<]+)</.exec(await (await fetch(`${siteUrl}/tools`)).text())?.[1];
      expect(english).toBeTruthy();
      await hydrate(page, "/tools");
      expect(await page.locator("h1").first().innerText()).toBe(english);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
      expect(await keptParsedMain(page)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("a click before hydration", () => {
  /** Opens `path` with every script held back until `release` is called. */
  async function openWithoutScripts(path: string) {
    const context = await newContext();
    const page = await context.newPage();
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route(/\/static\/dist\/.+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${siteUrl}${path}`, { waitUntil: "commit" });
    return { context, page, release };
  }

  it("on a tool's drop zone is visibly not taken (disabled, busy); once hydrated it opens the picker", async () => {
    const { context, page, release } = await openWithoutScripts("/tools/merge-pdf");
    try {
      const button = page.getByTestId("dropzone-button");
      await button.waitFor({ state: "visible" });
      expect(await button.isDisabled()).toBe(true);
      expect(await button.getAttribute("aria-busy")).toBe("true");
      expect(await page.getByTestId("dropzone").getAttribute("aria-busy")).toBe("true");
      const early = page.waitForEvent("filechooser", { timeout: 1_000 }).catch(() => null);
      await button.click({ force: true });
      expect(await early).toBeNull();

      release();
      await page.waitForFunction(() => document.documentElement.dataset.pageReady === "/tools/merge-pdf");
      expect(await button.isEnabled()).toBe(true);
      expect(await button.getAttribute("aria-busy")).toBeNull();
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), button.click()]);
      expect(chooser.isMultiple()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("on a tool's options and start button is visibly not taken; once hydrated the choice is the app's", async () => {
    const { context, page, release } = await openWithoutScripts("/tools/compress-image");
    try {
      const low = page.locator('input[name="quality"][value="low"]');
      const convert = page.getByTestId("convert-button");
      await convert.waitFor({ state: "visible" });
      expect(await page.getByTestId("tool-body").getAttribute("aria-busy")).toBe("true");
      expect(await low.isDisabled()).toBe(true);
      expect(await convert.isDisabled()).toBe(true);
      // A click on an option before hydration would check it with the app still on "medium".
      await low.click({ force: true });
      expect(await low.isChecked()).toBe(false);

      release();
      await page.waitForFunction(
        () => document.documentElement.dataset.pageReady === "/tools/compress-image",
      );
      expect(await page.getByTestId("tool-body").getAttribute("aria-busy")).toBeNull();
      expect(await convert.isEnabled()).toBe(true);
      await low.check();
      expect(await low.isChecked()).toBe(true);
      expect(await page.locator('input[name="quality"][value="medium"]').isChecked()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("on the header's and home page's buttons: sent disabled and busy, working once hydrated", async () => {
    const { context, page, release } = await openWithoutScripts("/");
    try {
      const controls = ["theme-toggle", "menu-toggle", "language-select"].map((id) => page.getByTestId(id));
      const explore = page.locator(".hero__actions button");
      for (const control of [...controls, explore]) {
        await control.waitFor({ state: "attached" });
        expect(await control.isDisabled()).toBe(true);
        expect(await control.getAttribute("aria-busy")).toBe("true");
      }
      release();
      await page.waitForFunction(() => document.documentElement.dataset.pageReady === "/");
      for (const control of [...controls, explore]) expect(await control.isEnabled()).toBe(true);
      const theme = page.getByTestId("theme-toggle");
      const before = await theme.getAttribute("data-theme-shown");
      await theme.click();
      await expect.poll(() => theme.getAttribute("data-theme-shown")).not.toBe(before);
    } finally {
      await context.close();
    }
  });
});
