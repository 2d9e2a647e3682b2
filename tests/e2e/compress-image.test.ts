import { unzipSync } from "fflate";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

/** A screenshot-like PNG: flat panels and rows of "text". */
async function screenshotPng(): Promise<Buffer> {
  const width = 480;
  const height = 320;
  const pixels = Buffer.alloc(width * height * 3, 250);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      if (y < 32) pixels.set([37, 99, 235], at);
      else if (x < 100) pixels.set([241, 245, 249], at);
      else if ((y - 40) % 18 < 7 && (x - 110) % 50 < 38) pixels.set([40, 40, 60 + (y % 40)], at);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A photo-like JPEG saved at quality 98. */
async function photoJpeg(): Promise<Buffer> {
  const width = 400;
  const height = 300;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const wave = Math.sin(x / 17) * 40 + Math.cos(y / 23) * 40;
      pixels.set(
        [100 + (x * 100) / width + wave, 80 + (y * 120) / height - wave / 2, 150 + wave / 3],
        (y * width + x) * 3,
      );
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 98 })
    .toBuffer();
}

describe("Compress image in Spanish", () => {
  it("compresses a batch, names the one bad file, shows the sizes, and downloads the results in one ZIP", async () => {
    const t = translator("es");
    const language = "es";
    const size = (bytes: number) =>
      bytes < 1024
        ? t("units.bytes", { value: new Intl.NumberFormat(language).format(bytes) })
        : bytes < 1024 * 1024
          ? t("units.kb", {
              value: new Intl.NumberFormat(language, {
                minimumFractionDigits: 1,
                maximumFractionDigits: 1,
              }).format(bytes / 1024),
            })
          : t("units.mb", {
              value: new Intl.NumberFormat(language, {
                minimumFractionDigits: 2,
                maximumFractionDigits: 2,
              }).format(bytes / 1024 / 1024),
            });
    const png = await screenshotPng();
    const jpeg = await photoJpeg();
    const page = await newPage();
    await page.goto(`${siteUrl}/es/tools/compress-image`);
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("compress-image:name"));
    await page.getByTestId("file-input").setInputFiles([
      { name: "pantalla.png", mimeType: "image/png", buffer: png },
      { name: "foto.jpg", mimeType: "image/jpeg", buffer: jpeg },
      // Cut short after its header: this one fails, by name, and the others go on.
      { name: "rota.png", mimeType: "image/png", buffer: png.subarray(0, 300) },
    ]);
    await expect.poll(() => page.getByTestId("batch-item").count()).toBe(3);

    // Custom quality: the slider shows its percent.
    await page.getByLabel(t("compress-image:quality.custom"), { exact: true }).check();
    const slider = page.getByRole("slider");
    await slider.fill("80");
    expect(await page.getByTestId("custom-quality").textContent()).toBe(
      t("compress-image:quality.percent", { value: 80 }),
    );

    await page.getByRole("button", { name: t("compress-image:compress") }).click();
    await expect
      .poll(() => page.getByRole("heading", { name: t("compress-image:resultTitle") }).count(), {
        timeout: 90_000,
      })
      .toBe(1);

    const failed = page.locator('[data-testid="batch-item"][data-state="failed"]');
    expect(await failed.count()).toBe(1);
    expect(await failed.textContent()).toContain("rota.png");
    expect(await failed.getByTestId("batch-error").textContent()).toBe(t("errors.codes.IMAGE_DAMAGED"));
    expect(await page.locator('[data-fact="files"] dd').textContent()).toBe(
      t("imageBatch.filesDone", { done: 2, total: 3 }),
    );

    const originals = await page.getByTestId("batch-original-size").allTextContents();
    expect(originals).toEqual([size(png.length), size(jpeg.length)]);
    const shownNew = await page.getByTestId("batch-new-size").allTextContents();

    // The before/after comparison moves with the keyboard.
    // Both sides of the comparison load: the original from the browser, the result from the server.
    const images = page.getByTestId("compare-slider").locator("img");
    await expect
      .poll(() => images.evaluateAll((all) => all.map((img) => (img as HTMLImageElement).naturalWidth)))
      .toEqual([480, 480]);
    const divider = page.getByTestId("compare-slider").locator("input[type=range]");
    await divider.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await divider.inputValue()).toBe("49");

    const zip = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("imageBatch.downloadZip") }).click(),
    );
    expect(zip.name).toMatch(/\.zip$/);
    const entries = unzipSync(zip.bytes);
    expect(Object.keys(entries)).toEqual(["pantalla-compressed.png", "foto-compressed.jpg"]);
    const outPng = entries["pantalla-compressed.png"] ?? new Uint8Array();
    const outJpeg = entries["foto-compressed.jpg"] ?? new Uint8Array();
    expect(await sharp(outPng).metadata()).toMatchObject({ format: "png", width: 480, height: 320 });
    expect(await sharp(outJpeg).metadata()).toMatchObject({ format: "jpeg", width: 400, height: 300 });
    expect(outPng.length).toBeLessThan(png.length);
    expect(outJpeg.length).toBeLessThan(jpeg.length);
    expect(shownNew).toEqual([size(outPng.length), size(outJpeg.length)]);
    await page.context().close();
  });
});
