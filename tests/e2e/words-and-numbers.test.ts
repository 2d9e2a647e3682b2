/**
 * Words and numbers (issue 30 §8): a batch of several files has a plural title, a total that grew
 * says "larger" (never a negative reduction), and files that came out larger are counted apart; a
 * file given as Markdown that is not is called "not a valid Markdown file", not an image; headings
 * are sized per script, so the home page's buttons are on a phone's first screen in every language.
 */
import { describe, expect, inject, it } from "vitest";
import { LANGUAGE_CODES } from "../../contract/languages.ts";
import { imageFixtures } from "../container/image-fixtures.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe("JPG to PNG, two photos", () => {
  it("says the images are ready, how much larger they are, and that both grew", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/jpg-to-png`);
    const jpeg = Buffer.from(await imageFixtures.photoJpeg(320, 200));
    await page.getByTestId("file-input").setInputFiles([
      { name: "one.jpg", mimeType: "image/jpeg", buffer: jpeg },
      { name: "two.jpg", mimeType: "image/jpeg", buffer: jpeg },
    ]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "PNG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const title = t("imageConverter.resultTitle_other", { format: "PNG" });
    expect(await page.getByRole("heading", { name: title }).count()).toBe(1);
    const change = (await page.locator('[data-fact="change"] dd').textContent()) ?? "";
    const larger = new RegExp(`^${t("imageConverter.larger", { percent: "[\\d.,]+" })}$`);
    expect(change).toMatch(larger);
    expect(await page.getByTestId("result-panel").textContent()).not.toMatch(/[−-]\d/);
    expect(await page.locator('[data-fact="grew"] dd').textContent()).toBe(
      t("imageBatch.countOfTotal", { count: 2, total: 2 }),
    );
    await page.context().close();
  });
});

describe("Markdown to PDF, a file that is not Markdown", () => {
  it("is named as not a valid Markdown file (not an image)", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/markdown-to-pdf`);
    const png = Buffer.from(await imageFixtures.photoPng(32, 32));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "notes.md", mimeType: "text/markdown", buffer: png }]);
    const toast = page.getByTestId("toast");
    await toast.waitFor();
    expect(await toast.textContent()).toContain(t("errors.notMarkdownContent", { name: "notes.md" }));
    await page.context().close();
  });
});

describe("The home page on a phone (390 × 844)", () => {
  it("shows its heading and both buttons on the first screen in every language", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    // The page's own area: a phone browser's address and tool bars take about 144 px of the screen.
    const firstScreen = 844 - 144;
    const seen: Record<string, number> = {};
    for (const language of LANGUAGE_CODES) {
      await page.goto(`${siteUrl}/${language}`);
      await page.evaluate(() => document.fonts.ready);
      const bottoms = await page
        .locator(".hero__actions > *")
        .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().bottom));
      expect(bottoms).toHaveLength(2);
      seen[language] = Math.round(Math.max(...bottoms));
    }
    const below = Object.entries(seen).filter(([, bottom]) => bottom > firstScreen);
    expect(below).toEqual([]);
    await page.context().close();
  });
});
