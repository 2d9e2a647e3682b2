import * as mupdf from "mupdf";
import { describe, expect, inject, it } from "vitest";
import { COMPRESSION_LEVELS } from "../../engines/pdf/compress-levels.ts";
import { encryptedPdf, pageTexts, save, textPdfDocument } from "../container/fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe("Compress PDF in French", () => {
  it("compresses at the chosen level, shows both sizes and downloads a smaller PDF with the same text", async () => {
    const t = translator("fr");
    const page = await newPage();
    await page.goto(`${siteUrl}/fr/tools/compress-pdf`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("fr");
    // Saved without compression: the lossless re-save alone makes it smaller.
    const input = save(textPdfDocument("rapport", 4), "");
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "rapport.pdf", mimeType: "application/pdf", buffer: Buffer.from(input) }]);
    expect(await page.getByTestId("chosen-pdf").textContent()).toContain("rapport.pdf");
    // Each level says what it does, in the numbers the engine uses.
    for (const level of ["low", "medium", "high"] as const) {
      const { targetDpi, jpegQuality } = COMPRESSION_LEVELS[level];
      const hint = t(`compress-pdf:levels.${level}.hint`, { dpi: targetDpi, quality: jpegQuality });
      expect(hint).toContain(`${targetDpi}`);
      expect(await page.getByText(hint).count(), level).toBe(1);
    }
    await page.getByLabel(t("compress-pdf:levels.low.label")).check();
    await page.getByRole("button", { name: t("compress-pdf:compress") }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    // The result takes the focus (the compress button that had it is gone), so it is announced.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("result-title");
    expect(await page.getByRole("heading", { name: t("compress-pdf:resultTitle") }).count()).toBe(1);
    expect(await page.getByTestId("size-comparison").isVisible()).toBe(true);
    expect(await page.getByText(t("compress-pdf:levels.low.label")).count()).toBeGreaterThan(0);

    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("rapport-compressed.pdf");
    expect(file.bytes.length).toBeLessThan(input.length);
    const compressed = mupdf.PDFDocument.openDocument(file.bytes, "application/pdf") as mupdf.PDFDocument;
    const original = mupdf.PDFDocument.openDocument(input, "application/pdf") as mupdf.PDFDocument;
    expect(pageTexts(compressed)).toEqual(pageTexts(original));
    await page.context().close();
  });

  it("asks a protected PDF's password where it is shown, names a wrong one, and compresses with the right one", async () => {
    const t = translator("fr");
    const page = await newPage();
    await page.goto(`${siteUrl}/fr/tools/compress-pdf`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "secret.pdf", mimeType: "application/pdf", buffer: Buffer.from(encryptedPdf()) },
      ]);
    // The file asks for its password where it is shown: no toast, the reason under the field.
    const prompt = page.getByTestId("pdf-password-prompt");
    await expect.poll(() => prompt.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await prompt.textContent()).toContain(t("errors.codes.PDF_ENCRYPTED"));
    expect(await page.getByTestId("chosen-pdf").textContent()).toContain("secret.pdf");
    expect(await page.getByRole("button", { name: t("compress-pdf:compress") }).isDisabled()).toBe(true);
    await page.getByTestId("pdf-password").fill("wrong");
    await page.getByTestId("pdf-password-open").click();
    await expect
      .poll(() => prompt.textContent(), { timeout: 60_000 })
      .toContain(t("errors.codes.PDF_WRONG_PASSWORD"));
    // encryptedPdf() opens with "x": the page count appears and the PDF compresses.
    await page.getByTestId("pdf-password").fill("x");
    await page.getByTestId("pdf-password-open").click();
    await expect
      .poll(() => page.getByTestId("page-count").textContent(), { timeout: 60_000 })
      .toContain(t("chosenPdf.pages_other", { formatted: 2 }));
    expect(await prompt.count()).toBe(0);
    await page.getByRole("button", { name: t("compress-pdf:compress") }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    const opened = mupdf.PDFDocument.openDocument(file.bytes, "application/pdf") as mupdf.PDFDocument;
    expect(opened.needsPassword()).toBe(false);
    expect(pageTexts(opened)).toEqual(["Secret page 1", "Secret page 2"]);
    await page.context().close();
  });
});
