import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import pageNumbersTool from "../../tools/page-numbers/tool.ts";
import { textPdf } from "../container/fixtures.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const openPage = chromiumPages();
const siteUrl = inject("siteUrl");
const id = pageNumbersTool.id;

async function openWith(page: Page, lang: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${siteUrl}/${lang}/tools/${id}`);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(bytes) }]);
}

describe("Add page numbers", () => {
  it("previews the number on the first numbered page and writes the same text (Hindi, Devanagari digits)", async () => {
    const t = translator("hi");
    const page = await openPage();
    await openWith(page, "hi", textPdf("Report", 3));
    await expect
      .poll(() => page.getByTestId("page-number-preview").textContent(), { timeout: 30_000 })
      .toBe("1");

    await page.getByRole("radio", { name: t(`${id}:digits.devanagari`) }).check();
    await page.getByRole("radio", { name: "पृष्ठ १ / ३" }).check();
    await page.getByRole("radio", { name: t(`${id}:position.top-right`) }).check();
    await page.getByTestId("page-ranges").fill("9");
    await expect
      .poll(() => page.getByTestId("page-ranges-error").textContent())
      .toBe(t("errors.invalidPage", { page: "9", pages: 3 }));
    expect(await page.getByTestId("page-numbers-button").isDisabled()).toBe(true);
    await page.getByTestId("page-ranges").fill("2-3");
    await expect.poll(() => page.getByTestId("page-number-preview").textContent()).toBe("पृष्ठ १ / २");
    expect(await page.getByTestId("page-preview").textContent()).toContain(t("thumbnails.page", { page: 2 }));

    await page.getByTestId("page-numbers-button").click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("report-numbered.pdf");
    const texts = popplerPageTexts(new Uint8Array(file.bytes));
    expect(texts[0]).toBe("Report page 1");
    expect(texts.slice(1).map((text) => text.split("\n")[0]?.normalize("NFC"))).toEqual(
      ["पृष्ठ १ / २", "पृष्ठ २ / २"].map((label) => label.normalize("NFC")),
    );
    await page.context().close();
  });
});
