import { describe, expect, inject, it } from "vitest";
import { scanImage, scanPdf } from "../support/scan-pages.ts";
import { pdfText, wordF1, wordsOf } from "../support/script-text.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

const TAMIL = "தமிழ் ஒரு பழமையான மொழி. இது இந்தியாவில் பேசப்படுகிறது.";
const ENGLISH = "Every scanned word can be found again";

describe("PDF OCR in Tamil", () => {
  it("presets the page's language, recognises a scan with progress, and downloads a searchable PDF", async () => {
    const t = translator("ta");
    const page = await newPage();
    await page.goto(`${siteUrl}/ta/tools/ocr`);
    const languages = page.getByTestId("ocr-languages");
    await expect.poll(() => languages.locator("input:checked").count(), { timeout: 15_000 }).toBe(1);
    expect(await languages.locator('input[value="ta"]').isChecked()).toBe(true);
    // English too: the scan has an English line.
    await languages.locator('input[value="en"]').check();
    const scan = scanPdf([await scanImage({ markdown: `# ${ENGLISH}\n\n${TAMIL}\n\n${TAMIL}` })]);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "ஸ்கேன்.pdf", mimeType: "application/pdf", buffer: Buffer.from(scan) }]);
    await page.getByTestId("ocr-button").click();
    await expect
      .poll(() => page.getByRole("heading", { name: t("ocr:resultTitle") }).count(), { timeout: 120_000 })
      .toBe(1);
    // The fact's own label (the live region also reads it out, in a longer sentence).
    expect(await page.getByText(t("ocr:facts.pages_recognised"), { exact: true }).count()).toBe(1);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download") }).click(),
    );
    expect(file.name).toMatch(/-ocr\.pdf$/);
    const text = pdfText(new Uint8Array(file.bytes));
    const source = `${TAMIL} ${TAMIL}`;
    expect(wordF1(wordsOf(source, "tamil"), wordsOf(text, "tamil"))).toBeGreaterThanOrEqual(0.85);
    expect(wordF1(wordsOf(ENGLISH, "latin"), wordsOf(text, "latin"))).toBeGreaterThanOrEqual(0.85);
    await page.context().close();
  });
});
