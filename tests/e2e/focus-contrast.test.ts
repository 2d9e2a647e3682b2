/**
 * Keyboard and reading (issue 30 §7): after following a link inside the app, focus is on the new
 * page's main heading and the heading is announced, so the next Tab stays in the page; an error
 * toast's text has a contrast of at least 4.5:1 on its red, in light and dark.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe("focus after navigation", () => {
  it("moves to the new page's heading, announces it, and the next Tab stays in the page", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/`);
    await page
      .locator(".site-header")
      .getByRole("link", { name: t("nav.about") })
      .first()
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/about");
    const heading = t("pages.about.heading", { name: t("app.name") });
    await expect
      .poll(() =>
        page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent}`),
      )
      .toBe(`H1 ${heading}`);
    expect(await page.getByTestId("live-announcer").textContent()).toBe(heading);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
    await page.context().close();
  });
});

/** WCAG contrast of the description's colour (its opacity applied) on the toast's background. */
function toastContrast(page: Page) {
  return page.evaluate(() => {
    const toast = document.querySelector(".toast--destructive") as HTMLElement;
    const text = toast.querySelector(".toast__description") as HTMLElement;
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const back = rgb(getComputedStyle(toast).backgroundColor);
    const alpha = Number(getComputedStyle(text).opacity);
    const fore = rgb(getComputedStyle(text).color).map((c, i) => c * alpha + (back[i] ?? 0) * (1 - alpha));
    const luminance = (c: number[]) =>
      c
        .map((v) => v / 255)
        .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * ([0.2126, 0.7152, 0.0722][i] ?? 0), 0);
    const [a, b] = [luminance(fore), luminance(back)].sort((x, y) => y - x) as [number, number];
    return (a + 0.05) / (b + 0.05);
  });
}

describe("the error toast", () => {
  for (const scheme of ["light", "dark"] as const)
    it(`has text of at least 4.5:1 on its red (${scheme})`, async () => {
      const page = await newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${siteUrl}/tools/merge-pdf`);
      await page
        .getByTestId("file-input")
        .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
      await page.locator(".toast--destructive .toast__description").waitFor();
      expect(await toastContrast(page)).toBeGreaterThanOrEqual(4.5);
      await page.context().close();
    });
});
