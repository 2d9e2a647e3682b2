import * as mupdf from "mupdf";
import { describe, expect, inject, it } from "vitest";
import signTool from "../../tools/sign/tool.ts";
import { textPdf } from "../container/fixtures.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const openPage = chromiumPages();
const siteUrl = inject("siteUrl");
const id = signTool.id;

/** Page `index` rendered at 72 dpi (RGB). */
function render(bytes: Uint8Array, index: number): Uint8Array {
  const doc = new mupdf.PDFDocument(bytes);
  const pixmap = doc.loadPage(index).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
  return new Uint8Array(pixmap.getPixels());
}

describe("Sign PDF", () => {
  it("draws a signature with the mouse, places it on page 1 and stamps it there (Hindi)", async () => {
    const t = translator("hi");
    const page = await openPage();
    await page.goto(`${siteUrl}/hi/tools/${id}`);
    expect(await page.getByTestId("sign-notice").textContent()).toBe(t(`${id}:notice`));
    const input = textPdf("Contract", 2);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "contract.pdf", mimeType: "application/pdf", buffer: Buffer.from(input) }]);

    const pad = page.getByTestId("sign-pad-signature");
    await pad.waitFor({ timeout: 30_000 });
    await pad.scrollIntoViewIfNeeded();
    const box = await pad.boundingBox();
    if (box === null) throw new Error("the pad is not shown");
    await page.mouse.move(box.x + 40, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let step = 1; step <= 12; step++) {
      await page.mouse.move(box.x + 40 + step * 25, box.y + box.height * (0.7 - 0.4 * Math.sin(step / 2)));
    }
    await page.mouse.up();
    await expect
      .poll(() => page.getByTestId("sign-box-signature").isVisible(), { timeout: 10_000 })
      .toBe(true);
    // The keyboard moves the placed signature too.
    await page.getByTestId("sign-box-signature").focus();
    await page.keyboard.press("ArrowUp");

    await page.getByTestId("sign-button").click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("contract-signed.pdf");
    const signed = new Uint8Array(file.bytes);
    expect(new mupdf.PDFDocument(signed).countPages()).toBe(2);
    expect(popplerPageTexts(signed)).toEqual(popplerPageTexts(input));
    expect(Buffer.from(render(signed, 0)).equals(Buffer.from(render(input, 0)))).toBe(false);
    expect(Buffer.from(render(signed, 1)).equals(Buffer.from(render(input, 1)))).toBe(true);
    await page.context().close();
  });
});
