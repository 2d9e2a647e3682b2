import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { imageFixtures } from "../container/image-fixtures.ts";
import { heicOf, heifEnc } from "../container/image-kind-fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe.skipIf(!heifEnc())("HEIC to JPG in German", () => {
  it("is a card of the image tools, names a damaged HEIC, then converts an iPhone-style photo", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/image-tools`);
    await page
      .getByRole("link", { name: t("heic-to-jpg:name") })
      .first()
      .click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("heic-to-jpg:name"));
    expect(new URL(page.url()).pathname).toBe("/de/tools/heic-to-jpg");

    const heic = Buffer.from(heicOf(await imageFixtures.photoPng(300, 200), 80));
    // Cut inside the picture data: it still looks like a HEIC, but cannot be decoded.
    const damaged = heic.subarray(0, heic.length - 300);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "kaputt.heic", mimeType: "image/heic", buffer: damaged }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect
      .poll(
        () =>
          page
            .getByText(t("errors.imageUnreadable", { format: "HEIC" }))
            .first()
            .isVisible(),
        {
          timeout: 60_000,
        },
      )
      .toBe(true);

    // Browsers on Windows report no type for .heic files: the name and the bytes decide.
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "IMG_0042.HEIC", mimeType: "", buffer: heic }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect
      .poll(() =>
        page
          .getByText(t("result.pixels", { width: 300, height: 200 }))
          .first()
          .isVisible(),
      )
      .toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("imageConverter.download", { format: "JPG" }) }).click(),
    );
    expect(file.name).toBe("IMG_0042.jpg");
    const metadata = await sharp(file.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["jpeg", 300, 200]);
    await page.context().close();
  });
});
