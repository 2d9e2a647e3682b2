import * as mupdf from "mupdf";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import organizeTool from "../../tools/organize-pdf/tool.ts";
import { pageText, pageTexts, textPdf } from "../container/fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const openPage = chromiumPages();
const siteUrl = inject("siteUrl");
const id = organizeTool.id;

async function openWith(page: Page, lang: string, name: string, bytes: Uint8Array): Promise<void> {
  await page.goto(`${siteUrl}/${lang}/tools/${id}`);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name, mimeType: "application/pdf", buffer: Buffer.from(bytes) }]);
}

/** The board's pages as source page numbers (0: blank) and turns, in order. */
const board = (page: Page) =>
  page
    .getByTestId("organize-page")
    .evaluateAll((tiles) => tiles.map((tile) => `${tile.dataset.source}@${tile.dataset.rotate}`));

const tile = (page: Page, source: number) =>
  page.locator(`[data-testid="organize-page"][data-source="${source}"]`);

function openPdf(bytes: Buffer): mupdf.PDFDocument {
  return mupdf.PDFDocument.openDocument(new Uint8Array(bytes), "application/pdf") as mupdf.PDFDocument;
}

describe("Organize PDF", () => {
  it("moves pages by keyboard and pointer, turns, deletes, duplicates, inserts a blank page and undoes (English)", async () => {
    const t = translator("en");
    const page = await openPage();
    await openWith(page, "en", "scan.pdf", textPdf("Scan", 4));
    await expect.poll(() => board(page)).toEqual(["1@0", "2@0", "3@0", "4@0"]);
    await expect
      .poll(() => page.locator('[data-testid="page-thumbnail"][data-state="drawn"]').count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);

    const label = (n: number) => t("thumbnails.page", { page: n });
    await page.getByRole("button", { name: t(`${id}:page.delete`, { label: label(3) }) }).click();
    await page.getByRole("button", { name: t(`${id}:page.rotate`, { label: label(2) }) }).click();
    await expect.poll(() => board(page)).toEqual(["1@0", "2@90", "4@0"]);

    // Keyboard: pick page 4 up with Space, two steps left, drop.
    await tile(page, 4).locator(".organize-tile__handle").focus();
    // dnd-kit moves one place per key once the previous move has been measured.
    for (const key of ["Space", "ArrowLeft", "ArrowLeft", "Space"]) {
      await page.keyboard.press(key);
      await page.waitForTimeout(250);
    }
    await expect.poll(() => board(page)).toEqual(["4@0", "1@0", "2@90"]);

    // Pointer: drag page 2 onto the first place.
    const from = await tile(page, 2).getByTestId("organize-select").boundingBox();
    const to = await tile(page, 4).getByTestId("organize-select").boundingBox();
    if (from === null || to === null) throw new Error("tiles not laid out");
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 - 20, from.y + from.height / 2, { steps: 4 });
    await page.mouse.move(to.x + 10, to.y + to.height / 2, { steps: 12 });
    await page.mouse.up();
    await expect.poll(() => board(page)).toEqual(["2@90", "4@0", "1@0"]);
    // dnd-kit swallows clicks for 50 ms after a drop (the click that ends a drag is no selection);
    // a person's next click comes later than that, the test's must too.
    await page.waitForTimeout(150);

    // Select page 4: a blank page goes after it; duplicate it, then undo the duplicate.
    // The drop selected nothing: one click selects page 4 alone.
    await tile(page, 4).getByTestId("organize-select").click();
    await expect
      .poll(() => page.locator('[data-testid="organize-select"][aria-pressed="true"]').count())
      .toBe(1);
    expect(await tile(page, 4).getByTestId("organize-select").getAttribute("aria-pressed")).toBe("true");
    await page.getByRole("button", { name: t(`${id}:actions.insertBlank`) }).click();
    await page.getByRole("button", { name: t(`${id}:actions.duplicate`) }).click();
    await expect.poll(() => board(page)).toEqual(["2@90", "4@0", "4@0", "0@0", "1@0"]);
    await page.getByRole("button", { name: t(`${id}:actions.undo`) }).click();
    await expect.poll(() => board(page)).toEqual(["2@90", "4@0", "0@0", "1@0"]);
    expect(await page.getByTestId("organize-status").textContent()).toBe(
      `${t(`${id}:selectedCount_one`, { count: 1 })} · ${t(`${id}:pageCount_other`, { count: 4 })}`,
    );

    await page.getByTestId("organize-button").click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("scan-organized.pdf");
    const doc = openPdf(file.bytes);
    expect(pageTexts(doc)).toEqual([pageText("Scan", 1), pageText("Scan", 3), "", pageText("Scan", 0)]);
    expect([0, 1, 2, 3].map((i) => doc.findPage(i).getInheritable("Rotate").asNumber())).toEqual([
      90, 0, 0, 0,
    ]);
    await page.context().close();
  });

  it("extracts the selected pages as a new PDF (Hindi)", async () => {
    const t = translator("hi");
    const page = await openPage();
    await openWith(page, "hi", "रिपोर्ट.pdf", textPdf("Report", 5));
    await expect.poll(() => page.getByTestId("organize-page").count()).toBe(5);
    await tile(page, 2).getByTestId("organize-select").click();
    await tile(page, 4)
      .getByTestId("organize-select")
      .click({ modifiers: ["Shift"] });
    await page.getByRole("button", { name: t(`${id}:extract`) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByTestId("result-panel").textContent()).toContain(t(`${id}:resultTitle`));
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(pageTexts(openPdf(file.bytes))).toEqual([1, 2, 3].map((i) => pageText("Report", i)));
    await page.context().close();
  });
});
