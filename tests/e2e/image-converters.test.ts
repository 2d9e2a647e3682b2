import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { imageFixtures } from "../container/image-fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

describe("WebP to JPG in Spanish", () => {
  it("refuses a PNG naming the formats it takes, then converts a transparent WebP to a JPEG on white", async () => {
    const t = translator("es");
    const page = await newPage();
    await page.goto(`${siteUrl}/es/tools/webp-to-jpg`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("webp-to-jpg:name"));

    const png = Buffer.from(await imageFixtures.photoPng(64, 48));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "foto.png", mimeType: "image/png", buffer: png }]);
    await expect
      .poll(
        () =>
          page
            // WebP first, then the kinds every image input takes (decoded in the container).
            .getByText(t("errors.invalidFormat", { format: "WEBP, HEIC, AVIF, TIFF, BMP" }))
            .first()
            .isVisible(),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);

    const webp = Buffer.from(await imageFixtures.alphaWebp(256, 160));
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "pegatina.webp", mimeType: "image/webp", buffer: webp }]);
    await page.getByRole("button", { name: t("imageConverter.convert", { format: "JPG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect
      .poll(() =>
        page
          .getByText(t("result.pixels", { width: 256, height: 160 }))
          .first()
          .isVisible(),
      )
      .toBe(true);

    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("imageConverter.download", { format: "JPG" }) }).click(),
    );
    expect(file.name).toBe("pegatina.jpg");
    const { data, info } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([256, 160, 3]);
    // The left edge was fully transparent: white, never the hidden colour.
    for (const channel of data.subarray((80 * 256 + 1) * 3, (80 * 256 + 1) * 3 + 3)) {
      expect(channel).toBeGreaterThan(245);
    }
    await page.context().close();
  });
});
