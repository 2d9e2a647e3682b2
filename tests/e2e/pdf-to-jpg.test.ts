import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { textPdf } from "../container/fixtures.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

/** The download the page starts by itself (spec §2: on success the browser goes to the file). */
async function downloadAfter(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 90_000 }), click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

describe("PDF to JPG in German", () => {
  it("analyses the PDF, checks the ranges as typed, and downloads the chosen pages at 72 dpi", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/pdf-to-jpg`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "bericht.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("bericht", 4)) },
      ]);
    const pageCount = t("chosenPdf.pages_other", { formatted: 4 });
    await expect
      .poll(() => page.getByTestId("page-count").textContent(), { timeout: 30_000 })
      .toBe(pageCount);
    expect(await page.getByTestId("page-grid").locator("li").count()).toBe(4);

    const ranges = page.getByTestId("page-ranges");
    await ranges.fill("2-9");
    expect(await page.getByTestId("page-ranges-error").textContent()).toBe(
      t("errors.invalidRange", { range: "2-9", pages: 4 }),
    );
    expect(await page.getByTestId("convert-button").isDisabled()).toBe(true);
    await ranges.fill("3,1");
    expect(await page.getByTestId("page-ranges-error").count()).toBe(0);
    // The thumbnails show the chosen pages as selected.
    expect(await page.locator('[data-testid="page-grid"] [aria-pressed="true"]').count()).toBe(2);
    await page.getByLabel(t("pdf-to-jpg:resolutions.72")).check();

    const file = await downloadAfter(page, () => page.getByTestId("convert-button").click());
    expect(file.name).toBe("bericht-pages.zip");
    const entries = Object.entries(unzipSync(file.bytes));
    expect(entries.map(([name]) => name)).toEqual(["bericht-page-3.jpg", "bericht-page-1.jpg"]);
    for (const [, jpeg] of entries) {
      const meta = await sharp(jpeg).metadata();
      expect([meta.width, meta.height]).toEqual([595, 842]);
    }
    await expect.poll(() => page.getByTestId("result-panel").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: t("pdf-to-jpg:resultTitle_other") }).count()).toBe(1);
    await page.context().close();
  });

  it("names the cause when a PDF has no images to extract, and keeps the file for another try", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/pdf-to-jpg`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "text.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("text", 1)) },
      ]);
    await expect.poll(() => page.getByTestId("convert-button").isEnabled(), { timeout: 30_000 }).toBe(true);
    await page.getByLabel(t("pdf-to-jpg:modes.extract-images.label")).check();
    expect(await page.getByTestId("page-ranges").count()).toBe(0);
    await page.getByTestId("convert-button").click();
    const toast = t("errors.fileProblem", { name: "text.pdf", message: t("errors.codes.PDF_NO_IMAGES") });
    await expect.poll(() => page.getByText(toast).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await page.getByText(t("errors.pdfToJpgFailed")).count()).toBeGreaterThan(0);
    // Busy has ended and the file is still chosen: switching back converts the page.
    await page.getByLabel(t("pdf-to-jpg:modes.convert-pages.label")).check();
    const file = await downloadAfter(page, () => page.getByTestId("convert-button").click());
    expect(file.name).toBe("text-page-1.jpg");
    expect((await sharp(file.bytes).metadata()).width).toBe(1240);
    await page.context().close();
  });
});
