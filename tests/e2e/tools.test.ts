import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { LANGUAGE_CODES, TOOL_IDS, TOOLS } from "../../contract/index.ts";
import { encryptedPdf, halfTransparentPng, pageTexts, textPdf } from "../container/fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe("Merge PDFs in English", () => {
  it("merges two PDFs in the chosen order and downloads the merged file", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page.getByTestId("file-input").setInputFiles([
      { name: "alpha.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("alpha", 2)) },
      { name: "beta.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("beta", 3)) },
    ]);
    // Each file is checked on arrival (page count) and previewed by its first page, drawn by pdf.js.
    await expect
      .poll(() => page.getByText(t("fileList.pages_other", { count: 3 })).count(), { timeout: 30_000 })
      .toBe(1);
    // The files are checked at the same time: either may be done first.
    await expect
      .poll(() => page.getByText(t("fileList.pages_other", { count: 2 })).count(), { timeout: 30_000 })
      .toBe(1);
    await expect
      .poll(() => page.locator('[data-testid="page-thumbnail"][data-state="drawn"]').count(), {
        timeout: 30_000,
      })
      .toBe(2);
    // A drawn preview is not blank: the page's text left ink on the (white) canvas.
    const drawn = await page
      .locator("[data-testid=page-thumbnail] canvas")
      .first()
      .evaluate((canvas) => {
        const element = canvas as HTMLCanvasElement;
        const pixels = element.getContext("2d")?.getImageData(0, 0, element.width, element.height).data ?? [];
        let ink = 0;
        let white = 0;
        for (let i = 0; i < pixels.length; i += 4) {
          if ((pixels[i] ?? 255) < 200) ink++;
          else if ((pixels[i] ?? 0) > 250) white++;
        }
        return { ink, white, pixels: element.width * element.height };
      });
    expect(drawn.white).toBeGreaterThan(drawn.pixels / 2);
    expect(drawn.ink).toBeGreaterThan(0);
    // Put beta first: the merged file must follow the list, not the upload order.
    await page.getByRole("button", { name: t("fileList.reverse") }).click();
    await page.getByRole("button", { name: t("merge-pdf:merge") }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByRole("heading", { name: t("merge-pdf:resultTitle") }).count()).toBe(1);

    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toMatch(/\.pdf$/);
    const merged = mupdf.PDFDocument.openDocument(file.bytes, "application/pdf") as mupdf.PDFDocument;
    expect(merged.countPages()).toBe(5);
    const texts = pageTexts(merged);
    expect(texts[0]).toContain("beta");
    expect(texts[3]).toContain("alpha");
    await page.context().close();
  });

  it("marks a password-protected file by name before anything is merged, and merges once it is removed", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page.getByTestId("file-input").setInputFiles([
      { name: "open.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("open", 1)) },
      { name: "locked.pdf", mimeType: "application/pdf", buffer: Buffer.from(encryptedPdf()) },
    ]);
    const reason = t("errors.codes.PDF_ENCRYPTED");
    const marked = page.locator('[data-testid="file-row"][data-problem="true"]');
    await expect.poll(() => marked.count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByText(t("merge-pdf:removeBad")).count()).toBe(1);
    expect(await page.getByRole("button", { name: t("merge-pdf:merge") }).isDisabled()).toBe(true);
    expect(await marked.textContent()).toContain("locked.pdf");
    expect(await marked.textContent()).toContain(reason);

    await marked.getByRole("button", { name: t("fileList.remove", { name: "locked.pdf" }) }).click();
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "second.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("second", 1)) },
      ]);
    expect(await page.locator('[data-problem="true"]').count()).toBe(0);
    await expect
      .poll(() => page.getByRole("button", { name: t("merge-pdf:merge") }).isEnabled(), { timeout: 30_000 })
      .toBe(true);
    await page.getByRole("button", { name: t("merge-pdf:merge") }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    await page.context().close();
  });

  it("refuses a file that is not a PDF with the spec's message and keeps the page usable", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
    await expect
      .poll(() => page.getByText(t("errors.onlyPdf")).first().isVisible(), { timeout: 10_000 })
      .toBe(true);
    await page.context().close();
  });
});

describe("PNG to JPG in German", () => {
  it("converts a transparent PNG into a JPEG of the same pixel size", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/png-to-jpg`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("de");
    const png = Buffer.from(await halfTransparentPng(320, 200));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "bild.png", mimeType: "image/png", buffer: png }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);

    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("imageConverter.download", { format: "JPG" }) }).click(),
    );
    expect(file.name).toBe("bild.jpg");
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(file.bytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 320, height: 200 });
    // Left half opaque red, right half fully transparent: flattened onto white, not black.
    const { data } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3)];
    for (const channel of pixel(280, 100)) expect(channel).toBeGreaterThan(245);
    expect(pixel(40, 100)[0]).toBeGreaterThan(200);
    expect(pixel(40, 100)[1]).toBeLessThan(50);
    await page.context().close();
  });
});

describe.each(LANGUAGE_CODES)("both tools in %s", (lang) => {
  it("shows the translated tool pages and converts a PNG end to end", async () => {
    const t = translator(lang);
    const page = await newPage();
    await page.goto(`${siteUrl}/${lang}/tools/merge-pdf`);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("merge-pdf:name"));
    expect(await page.getByRole("button", { name: t("merge-pdf:merge") }).count()).toBe(1);

    await page.goto(`${siteUrl}/${lang}/tools/png-to-jpg`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("png-to-jpg:name"));
    const png = Buffer.from(await halfTransparentPng(64, 48));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "x.png", mimeType: "image/png", buffer: png }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect
      .poll(
        () => page.getByRole("heading", { name: t("imageConverter.resultTitle", { format: "JPG" }) }).count(),
        {
          timeout: 60_000,
        },
      )
      .toBe(1);
    await page.context().close();
  });
});

describe("tools index in French", () => {
  it("lists the PDF tools in declared order, coming-soon ones flagged but still links", async () => {
    const page = await newPage();
    await page.goto(`${siteUrl}/fr/tools`);
    const cards = page.getByTestId("pdf-tools").getByTestId("tool-card");
    const pdfIds = TOOL_IDS.filter((id) => TOOLS[id].category === "pdf");
    await expect.poll(() => cards.count()).toBe(pdfIds.length);
    const hrefs = await cards.evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(pdfIds.map((id) => `/fr/tools/${id}`));
    const disabled = await cards.evaluateAll((links) => links.map((a) => a.getAttribute("data-disabled")));
    expect(disabled).toEqual(pdfIds.map((id) => (TOOLS[id].comingSoon ? "true" : null)));
    const imageCards = page.getByTestId("tool-card").filter({ hasText: translator("fr")("png-to-jpg:name") });
    expect(await imageCards.count()).toBe(0);
    await page.context().close();
  });
});
