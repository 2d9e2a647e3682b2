import { existsSync, readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import * as mupdf from "mupdf";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import splitTool from "../../tools/split-pdf/tool.ts";
import {
  encryptedPdf,
  flatOutline,
  pageText,
  pageTexts,
  scannedFaxBlack,
  scannedFaxPdf,
  textPdf,
} from "../container/fixtures.ts";
import { launchChromium } from "./browser.ts";
import { downloadBytes, newPage, translator } from "./page-helpers.ts";

let browser: Browser;
const siteUrl = inject("siteUrl");
const id = splitTool.id;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openWith(page: Page, lang: string, name: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${siteUrl}/${lang}/tools/${id}`);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name, mimeType: "application/pdf", buffer: Buffer.from(bytes) }]);
}

const pressed = (page: Page, number: number) =>
  page.locator(`[data-page="${number}"]`).getAttribute("aria-pressed");

describe("Split PDF in English", () => {
  it("builds ranges from typing and from thumbnails, splits, and downloads the parts", async () => {
    const t = translator("en");
    const page = await newPage(browser);
    const source = textPdf("Report", 6, {
      outline: [
        ["Start", 0],
        ["End", 5],
      ],
    });
    await openWith(page, "en", "report.pdf", source);
    await expect
      .poll(() =>
        page
          .getByTestId("page-count")
          .getByText(t("chosenPdf.pages_other", { formatted: 6 }), { exact: true })
          .count(),
      )
      .toBe(1);
    await expect.poll(() => page.getByTestId("page-thumbnail").count()).toBe(6);
    // The thumbnails are drawn by pdf.js in the page.
    await expect
      .poll(() => page.locator('[data-testid="page-thumbnail"][data-state="drawn"]').count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);

    const field = page.getByTestId("page-ranges");
    const split = page.getByRole("button", { name: t(`${id}:split`) });
    expect(await split.isDisabled()).toBe(true);
    await field.fill("1-2,9");
    await expect
      .poll(() => page.getByTestId("page-ranges-message").textContent())
      .toBe(t("errors.invalidPage", { page: "9", pages: 6 }));
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    expect(await split.isDisabled()).toBe(true);
    await field.fill("");

    // Click page 1, shift-click page 3 (a run), click page 5: the field follows.
    await page.locator('[data-page="1"]').click();
    await page.locator('[data-page="3"]').click({ modifiers: ["Shift"] });
    await page.locator('[data-page="5"]').click();
    await expect.poll(() => field.inputValue()).toBe("1-3,5");
    expect(await pressed(page, 2)).toBe("true");
    expect(await pressed(page, 4)).toBe("false");
    await page.locator('[data-page="2"]').click();
    await expect.poll(() => field.inputValue()).toBe("1,3,5");

    // Typing moves the selection.
    await field.fill("2-4,6");
    await expect.poll(() => pressed(page, 1)).toBe("false");
    expect([2, 3, 4, 6].map(String)).toEqual(
      await page
        .locator('[data-page][aria-pressed="true"]')
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-page"))),
    );
    expect(await page.getByTestId("part-count").textContent()).toBe(t(`${id}:partCount_other`, { count: 2 }));

    await split.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("report-split.zip");
    const parts = unzipSync(new Uint8Array(file.bytes));
    expect(Object.keys(parts)).toEqual(["report-pages-2-4.pdf", "report-page-6.pdf"]);
    const open = (bytes: Uint8Array | undefined) =>
      mupdf.PDFDocument.openDocument(bytes ?? new Uint8Array(), "application/pdf") as mupdf.PDFDocument;
    const first = open(parts["report-pages-2-4.pdf"]);
    const second = open(parts["report-page-6.pdf"]);
    expect(pageTexts(first)).toEqual([1, 2, 3].map((i) => pageText("Report", i)));
    expect(pageTexts(second)).toEqual([pageText("Report", 5)]);
    expect(flatOutline(second)).toEqual([{ title: "End", page: 0, depth: 0 }]);
    expect(flatOutline(first)).toEqual([]);
    await page.context().close();
  });

  it("names a password-protected PDF as soon as it is picked, and recovers with another file", async () => {
    const t = translator("en");
    const page = await newPage(browser);
    await openWith(page, "en", "locked.pdf", encryptedPdf());
    const marked = page.locator('[data-testid="chosen-pdf"][data-problem="true"]');
    await expect.poll(() => marked.count(), { timeout: 30_000 }).toBe(1);
    expect(await marked.textContent()).toContain("locked.pdf");
    expect(await marked.textContent()).toContain(t("errors.codes.PDF_ENCRYPTED"));
    expect(await page.getByTestId("page-grid").count()).toBe(0);
    expect(await page.getByRole("button", { name: t(`${id}:split`) }).isDisabled()).toBe(true);

    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "open.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("Open", 3)) },
      ]);
    await expect
      .poll(() =>
        page
          .getByTestId("page-count")
          .getByText(t("chosenPdf.pages_other", { formatted: 3 }), { exact: true })
          .count(),
      )
      .toBe(1);
    expect(await page.locator('[data-problem="true"]').count()).toBe(0);
    await page.context().close();
  });
});

/** A real PDF whose one page is a JPEG 2000 photo (pdf.js's test suite), when the wide corpus is here. */
const JPX_PAGE = new URL("../../../shared/corpus-wide/pdf/issue5549.pdf", import.meta.url);

/**
 * Opens `bytes` in Split PDF and waits for its `pages` thumbnails to be drawn; answers each one's
 * share of dark pixels and its red value at the points given (fractions of its width and height),
 * and the console's complaints about the CSP or WebAssembly meanwhile.
 */
async function drawnThumbnails(
  bytes: Uint8Array,
  pages: number,
  points: readonly (readonly [number, number])[],
) {
  const page = await newPage(browser);
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to|wasm/i.test(message.text())) refused.push(message.text());
  });
  await openWith(page, "en", "scan.pdf", bytes);
  const drawn = page.locator('[data-testid="page-thumbnail"][data-state="drawn"] canvas');
  await expect.poll(() => drawn.count(), { timeout: 30_000 }).toBe(pages);
  const drawings = await drawn.evaluateAll(
    (canvases, at) =>
      canvases.map((element) => {
        const canvas = element as HTMLCanvasElement;
        const context = canvas.getContext("2d") as CanvasRenderingContext2D;
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 128) dark++;
        const values = at.map(
          ([x, y]) =>
            data[(Math.floor(y * canvas.height) * canvas.width + Math.floor(x * canvas.width)) * 4] ?? -1,
        );
        return { dark: dark / (data.length / 4), values };
      }),
    points,
  );
  await page.context().close();
  return { drawings, refused };
}

describe("Split PDF's previews of scanned pages", () => {
  it("draws JBIG2 and CCITT fax pages with pdf.js's decoders, within the CSP", async () => {
    // Each page is black in its block (the top-left quarter) and white elsewhere, as drawn.
    const { width, height, block } = scannedFaxBlack;
    const centre = [(block.x + block.width / 2) / width, (block.y + block.height / 2) / height] as const;
    const { drawings, refused } = await drawnThumbnails(await scannedFaxPdf(), 2, [centre, [0.75, 0.75]]);
    const blackShare = (block.width * block.height) / (width * height);
    for (const { dark, values } of drawings) {
      expect(dark).toBeCloseTo(blackShare, 1);
      expect(values[0]).toBeLessThan(64);
      expect(values[1]).toBeGreaterThan(192);
    }
    expect(refused).toEqual([]);
  });

  it.skipIf(!existsSync(JPX_PAGE))("draws a JPEG 2000 page (wide corpus)", async () => {
    const { drawings, refused } = await drawnThumbnails(new Uint8Array(readFileSync(JPX_PAGE)), 1, []);
    // Poppler (pdftoppm) draws 60 % of this photo's pixels darker than mid-grey; blank is 0 %.
    expect(drawings[0]?.dark).toBeCloseTo(0.6, 1);
    expect(refused).toEqual([]);
  });
});

describe("Split PDF in German", () => {
  it("splits every N pages; a single part comes as a PDF", async () => {
    const t = translator("de");
    const page = await newPage(browser);
    await openWith(page, "de", "bericht.pdf", textPdf("Bericht", 5));
    await expect
      .poll(() =>
        page
          .getByTestId("page-count")
          .getByText(t("chosenPdf.pages_other", { formatted: 5 }), { exact: true })
          .count(),
      )
      .toBe(1);
    await page.getByRole("radio", { name: t(`${id}:mode.everyN`) }).check();
    await page.getByTestId("pages-per-part").fill("5");
    await expect
      .poll(() => page.getByTestId("part-count").textContent())
      .toBe(t(`${id}:partCount_one`, { count: 1 }));
    await page.getByRole("button", { name: t(`${id}:split`) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("bericht-pages-1-5.pdf");
    const doc = mupdf.PDFDocument.openDocument(
      new Uint8Array(file.bytes),
      "application/pdf",
    ) as mupdf.PDFDocument;
    expect(doc.countPages()).toBe(5);
    await page.context().close();
  });
});
