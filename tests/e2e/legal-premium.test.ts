import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import {
  LEGAL_UPDATED,
  PRIVACY_SECTIONS,
  TERMS_SECTIONS,
} from "../../client/src/features/legal/legal-sections.ts";
import { FREE_CONVERSIONS_KEY } from "../../client/src/lib/free-conversions/free-conversions.ts";
import { DEFAULT_RETENTION_MINUTES, LANGUAGE_CODES } from "../../contract/index.ts";
import { textPdf } from "../container/fixtures.ts";
import { imageFixtures } from "../container/image-fixtures.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

/** A key i18next shows in place of a missing string ("pages.privacy.storage.title"). */
const RAW_KEY = /\b(?:pages|freeToolAccess|result|app)\.[A-Za-z]+\.[A-Za-z.]+/;

async function mainText(page: Page): Promise<string> {
  return (await page.locator("main").textContent()) ?? "";
}

describe("Legal, about and premium pages in every language", () => {
  it.each(LANGUAGE_CODES)("render translated, dated and linked to the contact form in %s", async (lang) => {
    const t = translator(lang);
    const english = translator("en");
    const page = await newPage();
    const values = {
      name: t("app.name"),
      minutes: DEFAULT_RETENTION_MINUTES,
      deleteNow: t("result.deleteNow"),
    };
    const dated = (day: string) =>
      new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(
        new Date(`${day}T00:00:00Z`),
      );

    for (const [path, key, sections] of [
      ["/privacy-policy", "privacy", PRIVACY_SECTIONS],
      ["/terms-of-service", "terms", TERMS_SECTIONS],
    ] as const) {
      await page.goto(`${siteUrl}/${lang}${path}`);
      await expect
        .poll(() => page.locator("h1").textContent(), { timeout: 10_000 })
        .toBe(t(`pages.${key}.title`));
      // Dated the day the text last changed, not a made-up day years before the site existed.
      expect(await page.getByTestId("last-updated").textContent()).toBe(
        t("pages.legal.lastUpdated", { date: dated(LEGAL_UPDATED[key]) }),
      );
      expect(await page.getByTestId("last-updated").getAttribute("datetime")).toBe(LEGAL_UPDATED[key]);
      const headings = await page.locator("main h2").allTextContents();
      expect(headings).toEqual(sections.map((section) => t(`pages.${key}.${section}.title`)));
      const text = await mainText(page);
      expect(text).not.toMatch(RAW_KEY);
      // The retention and the delete button's label come from the code, filled in.
      expect(text).toContain(t(`pages.${key}.intro`, values));
      expect(text).toContain(String(DEFAULT_RETENTION_MINUTES));
      expect(text).toContain(values.deleteNow);
      if (lang !== "en") expect(text).not.toContain(english(`pages.${key}.intro`, values));
      const contact = page.getByRole("link", { name: t("pages.legal.contactLink") });
      expect(await contact.getAttribute("href")).toBe(`/${lang}/contact`);
    }

    await page.goto(`${siteUrl}/${lang}/about`);
    await expect
      .poll(() => page.locator("h1").textContent(), { timeout: 10_000 })
      .toBe(t("pages.about.heading", values));
    const about = await mainText(page);
    expect(about).toContain(t("pages.about.privacy.body", values));
    expect(about).not.toMatch(RAW_KEY);
    expect(await page.getByRole("link", { name: t("pages.about.contactLink") }).getAttribute("href")).toBe(
      `/${lang}/contact`,
    );

    await page.goto(`${siteUrl}/${lang}/premium`);
    await expect
      .poll(() => page.locator("h1").textContent(), { timeout: 10_000 })
      .toBe(t("pages.premium.heading"));
    const premium = await mainText(page);
    for (const benefit of ["unlimited", "noAds", "advanced"]) {
      expect(premium).toContain(t(`pages.premium.benefits.${benefit}.title`));
    }
    expect(await page.getByTestId("premium-free").textContent()).toBe(
      t("pages.premium.freeLimited_other", { count: 5, seconds: 5 }),
    );
    expect(premium).not.toMatch(RAW_KEY);
    await page.getByTestId("premium-contact").click();
    await expect
      .poll(() => new URL(page.url()).pathname + new URL(page.url()).search)
      .toBe(`/${lang}/contact?topic=billing`);
    // The link's topic is chosen once the contact page has rendered (an effect reads the address).
    await expect.poll(() => page.locator("#contact-topic").inputValue()).toBe("billing");
    await page.context().close();
  });

  it("marks the premium tool's card from its declaration", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools`);
    const ocr = page.getByTestId("tool-card").filter({ hasText: t("ocr:name") });
    // Tool names come with each tool's own strings, loaded after the page.
    await expect.poll(() => ocr.count(), { timeout: 15_000 }).toBe(1);
    expect(await ocr.locator(".badge--premium").textContent()).toBe(t("pages.tools.premium"));
    // Only premium tools carry the badge.
    expect(await page.locator(".badge--premium").count()).toBe(1);
    await page.context().close();
  });
});

describe("Cookies and browser storage", () => {
  it("are exactly those the privacy policy names, and a finished conversion is counted without a notice", async () => {
    const t = translator("en");
    const page = await newPage();
    // Under a language prefix, so the language cookie is written too.
    await page.goto(`${siteUrl}/en/tools/png-to-jpg`);
    const png = Buffer.from(await imageFixtures.photoPng(64, 48));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: png }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    // Under the limit the tool starts at once; the finished task is counted.
    expect(await page.getByTestId("free-tool-access").count()).toBe(0);
    const counted = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? "[]") as number[],
      FREE_CONVERSIONS_KEY,
    );
    expect(counted).toHaveLength(1);

    const cookies = (await page.context().cookies()).map((cookie) => cookie.name);
    const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
    expect(cookies.length).toBeGreaterThanOrEqual(2);
    await page.goto(`${siteUrl}/privacy-policy`);
    await expect
      .poll(() => page.locator("h1").textContent(), { timeout: 10_000 })
      .toBe(t("pages.privacy.title"));
    const named = await page.locator("main li code").allTextContents();
    for (const name of [...cookies, ...stored]) expect(named, name).toContain(name);
    await page.context().close();
  });
});

/** Stores `count` conversions made in the last hour, by the page's own (possibly fake) clock. */
async function fillCounter(page: Page, count: number) {
  await page.evaluate(
    ([key, n]) => {
      const now = Date.now();
      localStorage.setItem(key, JSON.stringify(Array.from({ length: n }, (_, i) => now - (n - i) * 60_000)));
    },
    [FREE_CONVERSIONS_KEY, count] as const,
  );
}

/** True when the focused element is inside the open dialog. */
const focusInDialog = (page: Page) =>
  page.evaluate(
    () => document.activeElement?.closest("dialog[open]") !== null && document.activeElement !== null,
  );

describe("Free Tool Access notice", () => {
  it("shows 1.5 s of loading and a 5-second countdown before a used-up visitor continues to the tool", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.clock.install();
    await page.goto(`${siteUrl}/tools/png-to-jpg`);
    await fillCounter(page, 5);
    const png = Buffer.from(await imageFixtures.photoPng(64, 48));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "photo.png", mimeType: "image/png", buffer: png }]);
    const convert = page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) });
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
    const uploads: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") uploads.push(request.url());
    });
    await convert.click();

    const dialog = page.getByRole("dialog", { name: t("freeToolAccess.title") });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getAttribute("aria-describedby")).toBe("free-tool-access-intro");
    expect(await dialog.textContent()).toContain(t("freeToolAccess.intro_other", { count: 5 }));
    const continueButton = dialog.getByRole("button", { name: t("freeToolAccess.continue") });
    const close = dialog.getByRole("button", { name: t("freeToolAccess.close") });
    const upgrade = dialog.getByRole("link", { name: t("freeToolAccess.upgrade") });
    // Loading: a spinner, no countdown yet.
    expect(await dialog.getByTestId("spinner").isVisible()).toBe(true);
    expect(await continueButton.count()).toBe(0);
    expect(await focusInDialog(page)).toBe(true);
    await page.clock.runFor(1499);
    expect(await dialog.getByTestId("spinner").count()).toBe(1);
    await page.clock.runFor(1);
    await expect
      .poll(() => dialog.getByTestId("free-tool-access-status").textContent())
      .toBe(t("freeToolAccess.wait_other", { count: 5 }));
    for (const seconds of [4, 3, 2, 1]) {
      expect(await continueButton.isDisabled()).toBe(true);
      expect(await close.isDisabled()).toBe(true);
      expect(await upgrade.count()).toBe(0);
      // Escape does nothing while the countdown runs; focus stays inside.
      await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
      expect(await dialog.isVisible()).toBe(true);
      expect(await focusInDialog(page)).toBe(true);
      await page.clock.runFor(999);
      expect(await dialog.getByTestId("free-tool-access-status").textContent()).toBe(
        t(seconds + 1 === 1 ? "freeToolAccess.wait_one" : "freeToolAccess.wait_other", {
          count: seconds + 1,
        }),
      );
      await page.clock.runFor(1);
      await expect
        .poll(() => dialog.getByTestId("free-tool-access-status").textContent())
        .toBe(t(seconds === 1 ? "freeToolAccess.wait_one" : "freeToolAccess.wait_other", { count: seconds }));
    }
    expect(await continueButton.isDisabled()).toBe(true);
    await page.clock.runFor(1000);
    await expect.poll(() => continueButton.isEnabled()).toBe(true);
    expect(await close.isEnabled()).toBe(true);
    expect(await upgrade.isVisible()).toBe(true);
    // Nothing was uploaded while the notice was up.
    expect(uploads.filter((url) => url.includes("/api/image/"))).toEqual([]);
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press("Tab");
      expect(await focusInDialog(page)).toBe(true);
    }

    await page.clock.resume();
    await continueButton.click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const counted = await page.evaluate(
      (key) => JSON.parse(localStorage.getItem(key) ?? "[]") as number[],
      FREE_CONVERSIONS_KEY,
    );
    expect(counted).toHaveLength(6);
    await page.context().close();
  });

  it("closes with Escape once dismissible without starting the tool, returning focus, and leads to Premium", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.clock.install();
    await page.goto(`${siteUrl}/de/tools/compress-pdf`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("de");
    await fillCounter(page, 7);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "bericht.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("bericht", 1)) },
      ]);
    const compress = page.getByRole("button", { name: t("compress-pdf:compress") });
    // The PDF is analysed first; the button works once that is done.
    await expect.poll(() => compress.isEnabled(), { timeout: 30_000 }).toBe(true);
    await compress.focus();
    await compress.press("Enter");
    const dialog = page.getByRole("dialog", { name: t("freeToolAccess.title") });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain(t("freeToolAccess.intro_other", { count: 7 }));
    await page.clock.runFor(6500);
    const status = dialog.getByTestId("free-tool-access-status");
    await expect.poll(() => status.textContent()).toBe(t("freeToolAccess.ready"));
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    // Closed, not continued: no task started, the file is still chosen, focus is back on the button.
    expect(await page.getByTestId("result-panel").count()).toBe(0);
    expect(await page.getByTestId("chosen-pdf").textContent()).toContain("bericht.pdf");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(t("compress-pdf:compress"));

    // Starting again shows the notice again; this time Upgrade to Premium leads to /de/premium.
    await compress.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.clock.runFor(6500);
    await dialog.getByRole("link", { name: t("freeToolAccess.upgrade") }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/de/premium");
    await expect
      .poll(() => page.locator("h1").textContent(), { timeout: 10_000 })
      .toBe(t("pages.premium.heading"));
    expect(await dialog.count()).toBe(0);
    await page.context().close();
  });
});
