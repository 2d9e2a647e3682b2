import * as mupdf from "mupdf";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import watermarkTool from "../../tools/watermark/tool.ts";
import { halfTransparentPng, textPdf } from "../container/fixtures.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const openPage = chromiumPages();
const siteUrl = inject("siteUrl");
const id = watermarkTool.id;

async function openWith(page: Page, lang: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${siteUrl}/${lang}/tools/${id}`);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "memo.pdf", mimeType: "application/pdf", buffer: Buffer.from(bytes) }]);
}

describe("Add watermark", () => {
  it("previews Tamil text and stamps it as text pdftotext reads back (Tamil)", async () => {
    const t = translator("ta");
    const page = await openPage();
    await openWith(page, "ta", textPdf("Memo", 2));
    const button = page.getByTestId("watermark-button");
    await expect.poll(() => page.getByTestId("watermark-text").isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByText(t(`${id}:text.required`)).count()).toBe(1);

    const words = "ரகசியம் கொள்கை";
    await page.getByTestId("watermark-text").fill(words);
    await expect.poll(() => page.getByTestId("watermark-preview").textContent()).toBe(words);
    await page.getByRole("radio", { name: t(`${id}:position.tiled`) }).check();
    await expect.poll(() => page.getByTestId("watermark-preview").count()).toBeGreaterThan(1);
    await page.getByTestId("page-ranges").fill("2");

    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("memo-watermarked.pdf");
    const texts = popplerPageTexts(new Uint8Array(file.bytes));
    expect(texts[0]).toBe("Memo page 1");
    expect(texts[1]?.normalize("NFC")).toContain(words.normalize("NFC"));
    await page.context().close();
  });

  it("previews an uploaded PNG and stamps it, the page's text unchanged (Hindi)", async () => {
    const t = translator("hi");
    const page = await openPage();
    await openWith(page, "hi", textPdf("Memo", 1));
    await page.getByRole("radio", { name: t(`${id}:kind.image`) }).check();
    const button = page.getByTestId("watermark-button");
    expect(await button.isDisabled()).toBe(true);
    expect(await page.getByText(t(`${id}:image.required`)).count()).toBe(1);
    const png = await halfTransparentPng(200, 100);
    await page
      .getByTestId("watermark-image")
      .setInputFiles([{ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(png) }]);
    await expect.poll(() => page.getByTestId("watermark-image-thumb").isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId("watermark-preview").evaluate((node) => node.tagName))
      .toBe("IMG");
    await page.getByRole("radio", { name: t(`${id}:rotation.0`) }).check();

    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(popplerPageTexts(new Uint8Array(file.bytes))).toEqual(["Memo page 1"]);
    // 40 % of the A4 width about the centre: the PNG's red half at 30 % opacity left of it.
    const doc = new mupdf.PDFDocument(new Uint8Array(file.bytes));
    const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const at = (421 * pixmap.getWidth() + 240) * 3;
    const [r, g] = [pixmap.getPixels()[at] ?? 0, pixmap.getPixels()[at + 1] ?? 0];
    expect(r).toBeGreaterThan(240);
    expect(g).toBeLessThan(200);
    await page.context().close();
  });
});
