import { readFileSync } from "node:fs";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { amount, day, tablesPdf } from "../support/table-pdfs.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

async function downloadAfter(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 90_000 }), click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/** Page 1: a note and a ruled price list; page 2: a borderless statement. */
function reportPdf(): Uint8Array {
  return tablesPdf([
    {
      before: ["Preisliste"],
      tables: [
        {
          ruled: true,
          columns: [
            { width: 150, align: "left" },
            { width: 80, align: "right" },
          ],
          rows: [
            ["Artikel", "Preis"],
            ["Schraube", amount("0.40", 0.4)],
            ["Dübel", amount("1,250.00", 1250)],
          ],
        },
      ],
    },
    {
      before: ["Kontoauszug"],
      tables: [
        {
          ruled: false,
          columns: [
            { width: 80, align: "left" },
            { width: 150, align: "left" },
            { width: 80, align: "right" },
          ],
          rows: [
            ["Date", "Description", "Amount"],
            [day("15/01/2024", "2024-01-15"), "Coffee", amount("(3.50)", -3.5)],
            [day("16/01/2024", "2024-01-16"), "Salary", amount("2,500.00", 2500)],
          ],
        },
      ],
    },
  ]);
}

describe("PDF to Excel in German", () => {
  it("analyses the PDF, checks the ranges, and downloads a workbook of typed cells from the chosen page", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/pdf-to-excel`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "bericht.pdf", mimeType: "application/pdf", buffer: Buffer.from(reportPdf()) },
      ]);
    await expect
      .poll(() => page.getByTestId("page-count").textContent(), { timeout: 30_000 })
      .toBe(t("chosenPdf.pages_other", { formatted: 2 }));
    const ranges = page.getByTestId("page-ranges");
    await ranges.fill("3");
    expect(await page.getByTestId("page-ranges-error").textContent()).toBe(
      t("errors.invalidPage", { page: "3", pages: 2 }),
    );
    expect(await page.getByTestId("convert-button").isDisabled()).toBe(true);
    await ranges.fill("2");
    await page.getByLabel(t("pdf-to-excel:contentChoices.tables-and-text.label")).check();

    const file = await downloadAfter(page, () => page.getByTestId("convert-button").click());
    expect(file.name).toBe("bericht.xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Page 2", "Text"]);
    const sheet = workbook.getWorksheet("Page 2");
    expect(sheet?.getCell("A2").value).toEqual(new Date(Date.UTC(2024, 0, 15)));
    expect(sheet?.getCell("C2").value).toBe(-3.5);
    expect(sheet?.getCell("C2").numFmt).toBe("0.00;(0.00)");
    expect(sheet?.getCell("C3").value).toBe(2500);
    expect(workbook.getWorksheet("Text")?.getCell("B1").value).toBe("Kontoauszug");
    await expect.poll(() => page.getByTestId("result-panel").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: t("pdf-to-excel:resultTitle_one") }).count()).toBe(1);
    await page.context().close();
  });
});
