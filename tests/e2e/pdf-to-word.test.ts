import { describe, expect, inject, it } from "vitest";
import { encryptedPdf, UNREADABLE_LINES, unreadableTextPdf } from "../container/fixtures.ts";
import { drawnPdf, textAt } from "../container/rich-pdf.ts";
import { docxParts, paragraphsOf } from "../support/docx.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

/** A page with a title, a paragraph over two lines and a Hindi word in visual glyph order. */
async function reportPdf(): Promise<Buffer> {
  const content = [
    textAt(72, 780, "Quarterly Report", 2, 22),
    textAt(72, 740, "Sales rose in every region this quarter, and the team expects the same"),
    textAt(72, 726, "next quarter."),
    "BT /F6 11 Tf 72 700 Td (abcde) Tj ET\n",
  ].join("");
  const glyphs = { a: "ि", b: "क", c: "त", d: "ा", e: "ब" };
  return Buffer.from(await drawnPdf([{ content }], glyphs));
}

describe("PDF to Word in Hindi", () => {
  it("converts a PDF and downloads a DOCX with its headings and text", async () => {
    const t = translator("hi");
    const page = await newPage();
    await page.goto(`${siteUrl}/hi/tools/pdf-to-word`);
    // The premium OCR option is shown, usable and off by default.
    const ocr = page.getByTestId("ocr-option").locator("input");
    expect(await ocr.isDisabled()).toBe(false);
    expect(await ocr.isChecked()).toBe(false);
    expect(await page.getByText(t("pdf-to-word:ocr.label")).count()).toBe(1);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "रिपोर्ट.pdf", mimeType: "application/pdf", buffer: await reportPdf() }]);
    await page.getByTestId("convert-button").click();
    await expect
      .poll(() => page.getByRole("heading", { name: t("pdf-to-word:resultTitle") }).count(), {
        timeout: 90_000,
      })
      .toBe(1);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download") }).click(),
    );
    expect(file.name).toMatch(/\.docx$/);
    const paragraphs = paragraphsOf(docxParts(new Uint8Array(file.bytes)).document);
    expect(paragraphs.map((p) => [p.style, p.text])).toEqual([
      ["Heading1", "Quarterly Report"],
      [null, "Sales rose in every region this quarter, and the team expects the same next quarter."],
      [null, "किताब"],
    ]);
    await page.context().close();
  });

  it("names a locked PDF as soon as it is picked, and keeps it shown", async () => {
    const t = translator("hi");
    const page = await newPage();
    await page.goto(`${siteUrl}/hi/tools/pdf-to-word`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "locked.pdf", mimeType: "application/pdf", buffer: Buffer.from(encryptedPdf()) },
      ]);
    // Spec §4: the PDF is analysed on pick, so a locked file is named before anything is uploaded.
    await expect
      .poll(() => page.getByText(t("errors.codes.PDF_ENCRYPTED"), { exact: false }).count(), {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    expect(await page.getByTestId("pdf-password-prompt").count()).toBe(1);
    expect(await page.getByTestId("chosen-pdf").textContent()).toContain("locked.pdf");
    expect(await page.getByTestId("convert-button").isDisabled()).toBe(true);
    await page.context().close();
  });

  it("says when the text cannot be read and converts again with OCR", async () => {
    const t = translator("hi");
    const page = await newPage();
    await page.goto(`${siteUrl}/hi/tools/pdf-to-word`);
    const pdf = Buffer.from(unreadableTextPdf(["private-use"]));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "garbled.pdf", mimeType: "application/pdf", buffer: pdf }]);
    await page.getByTestId("convert-button").click();
    const notice = page.getByTestId("unreadable-text");
    await expect.poll(() => notice.count(), { timeout: 90_000 }).toBe(1);
    expect(await notice.locator("p").textContent()).toBe(
      t("pdf-to-word:unreadable.message_one", { count: 1 }),
    );
    expect(await page.locator('[data-fact="unreadable"] dt').textContent()).toBe(
      t("pdf-to-word:facts.unreadable"),
    );
    await notice.getByRole("button", { name: t("pdf-to-word:unreadable.convertWithOcr") }).click();
    // The same file again, recognised: the result comes back without the notice.
    await expect
      .poll(
        async () =>
          (await notice.count()) === 0 &&
          (await page.getByRole("heading", { name: t("pdf-to-word:resultTitle") }).count()) === 1,
        { timeout: 180_000 },
      )
      .toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download") }).click(),
    );
    const text = paragraphsOf(docxParts(new Uint8Array(file.bytes)).document).map((p) => p.text);
    expect(text.join(" ")).toContain(UNREADABLE_LINES[1]);
    await page.context().close();
  }, 240_000);
});
