/**
 * Images to PDF in Chromium against the real site: pick images, reorder them by keyboard drag,
 * choose landscape, convert, and check the downloaded PDF's page order by rendering it.
 */
import * as mupdf from "mupdf";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { heicOf, heifEnc } from "../container/image-kind-fixtures.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const newPage = chromiumPages();
const siteUrl = inject("siteUrl");

type Rgb = readonly [number, number, number];
const COLOURS: Record<string, Rgb> = {
  "red.png": [220, 30, 30],
  "green.jpg": [30, 180, 60],
  "blue.webp": [30, 60, 220],
};

async function imageFile(name: string) {
  const [r, g, b] = COLOURS[name] ?? [0, 0, 0];
  const image = sharp({ create: { width: 160, height: 100, channels: 3, background: { r, g, b } } });
  const extension = name.split(".").pop();
  const buffer =
    extension === "jpg"
      ? await image.jpeg().toBuffer()
      : extension === "webp"
        ? await image.webp({ lossless: true }).toBuffer()
        : await image.png().toBuffer();
  const mimeType = extension === "jpg" ? "image/jpeg" : `image/${extension}`;
  return { name, mimeType, buffer };
}

const rowNames = (page: Page) =>
  page
    .getByTestId("file-row")
    .evaluateAll((rows) => rows.map((row) => row.querySelector(".file-row__name")?.getAttribute("title")));

/** The colour at the centre of each page of a PDF. */
function pageCentres(bytes: Buffer): { landscape: boolean; colour: Rgb }[] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf");
  const pages = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const pixmap = doc
      .loadPage(i)
      .toPixmap(mupdf.Matrix.scale(0.25, 0.25), mupdf.ColorSpace.DeviceRGB, false);
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const at = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 3;
    const pixels = pixmap.getPixels();
    pages.push({
      landscape: width > height,
      colour: [pixels[at] ?? 0, pixels[at + 1] ?? 0, pixels[at + 2] ?? 0] as const,
    });
  }
  return pages;
}

describe("Images to PDF in English", () => {
  it("puts the images on pages in the order set on screen, after a keyboard drag", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/images-to-pdf`);
    const convert = page.getByRole("button", { name: t("images-to-pdf:convert") });
    expect(await convert.isDisabled()).toBe(true);
    await page
      .getByTestId("file-input")
      .setInputFiles([await imageFile("red.png"), await imageFile("green.jpg")]);
    // A second selection is appended.
    await page.getByTestId("file-input").setInputFiles([await imageFile("blue.webp")]);
    await expect.poll(() => rowNames(page)).toEqual(["red.png", "green.jpg", "blue.webp"]);
    await expect.poll(() => page.locator('[data-testid="file-row"] img').count()).toBe(3);
    const thumbnails = await page
      .locator('[data-testid="file-row"] img')
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
    expect(thumbnails.every((src) => src.startsWith("blob:"))).toBe(true);

    // Move blue.webp up two places with the keyboard (Space, ArrowUp ×2, Space).
    await page.getByRole("button", { name: t("fileList.dragHandle", { name: "blue.webp" }) }).focus();
    for (const key of ["Space", "ArrowUp", "ArrowUp", "Space"]) {
      await page.keyboard.press(key);
      await page.waitForTimeout(200);
    }
    await expect.poll(() => rowNames(page)).toEqual(["blue.webp", "red.png", "green.jpg"]);

    await page.getByRole("radio", { name: t("images-to-pdf:orientationOption.landscape") }).check();
    const file = await downloadBytes(page, () => convert.click());
    expect(file.name).toMatch(/\.pdf$/);
    const pages = pageCentres(file.bytes);
    expect(pages).toHaveLength(3);
    const expected = ["blue.webp", "red.png", "green.jpg"];
    pages.forEach(({ landscape, colour }, index) => {
      expect(landscape).toBe(true);
      const want = COLOURS[expected[index] ?? ""] ?? [0, 0, 0];
      for (let c = 0; c < 3; c++) expect(Math.abs((colour[c] ?? 0) - (want[c] ?? 0))).toBeLessThan(16);
    });
    await expect.poll(() => page.getByTestId("result-panel").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: t("images-to-pdf:resultTitle") }).count()).toBe(1);
    await page.context().close();
  });

  it("refuses a non-image by name, keeps the images of the same selection, and removes single images", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/images-to-pdf`);
    await page.getByTestId("file-input").setInputFiles([await imageFile("red.png")]);
    await expect.poll(() => rowNames(page)).toEqual(["red.png"]);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        await imageFile("green.jpg"),
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
      ]);
    const refusal = t("errors.fileProblem", { name: "notes.txt", message: t("errors.onlyImages") });
    await expect.poll(() => page.getByText(refusal).first().isVisible()).toBe(true);
    // Only the non-image was refused: green.jpg joined the list.
    await expect.poll(() => rowNames(page)).toEqual(["red.png", "green.jpg"]);
    await page.getByRole("button", { name: t("fileList.remove", { name: "green.jpg" }) }).click();
    await page.getByRole("button", { name: t("fileList.remove", { name: "red.png" }) }).click();
    await expect.poll(() => page.getByTestId("file-row").count()).toBe(0);
    expect(await page.getByRole("button", { name: t("images-to-pdf:convert") }).isDisabled()).toBe(true);
    await page.context().close();
  });

  it("names an image the server cannot read, marks it, and converts once it is removed", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/images-to-pdf`);
    // A PNG signature (what the browser checks) followed by bytes that are no PNG.
    const broken = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 7),
    ]);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        await imageFile("red.png"),
        { name: "broken.png", mimeType: "image/png", buffer: broken },
      ]);
    await page.getByRole("button", { name: t("images-to-pdf:convert") }).click();
    const reason = t("errors.codes.IMAGE_DAMAGED");
    const toast = t("errors.fileProblem", { name: "broken.png", message: reason });
    await expect.poll(() => page.getByText(toast).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const marked = page.locator('[data-testid="file-row"][data-problem="true"]');
    expect(await marked.textContent()).toContain("broken.png");
    expect(await rowNames(page)).toEqual(["red.png", "broken.png"]);
    await marked.getByRole("button", { name: t("fileList.remove", { name: "broken.png" }) }).click();
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("images-to-pdf:convert") }).click(),
    );
    expect(pageCentres(file.bytes)).toHaveLength(1);
    await page.context().close();
  });
});

describe("Images to PDF on a phone, in Tamil", () => {
  it("draws a TIFF's thumbnail, shows a HEIC as a format tile (no broken image), and keeps names whole", async () => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${siteUrl}/ta/tools/images-to-pdf`);
    const red = sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 220, g: 30, b: 30 } },
    });
    const longName = "holiday-photo-from-the-beach-in-chennai-december-2026.tiff";
    const files = [
      {
        name: longName,
        mimeType: "image/tiff",
        buffer: await red.clone().tiff({ compression: "lzw" }).toBuffer(),
      },
      { name: "photo.png", mimeType: "image/png", buffer: await red.clone().png().toBuffer() },
      // Chromium has no HEIC decoder (Safari has): the row must not show a broken image.
      ...(heifEnc()
        ? [
            {
              name: "iphone.heic",
              mimeType: "image/heic",
              buffer: Buffer.from(heicOf(await red.clone().png().toBuffer())),
            },
          ]
        : []),
    ];
    await page.getByTestId("file-input").setInputFiles(files);
    await expect.poll(() => page.getByTestId("file-row").count()).toBe(files.length);
    await expect.poll(() => page.locator('[data-testid="image-thumbnail"][data-pending]').count()).toBe(0);
    const thumbnails = await page.getByTestId("image-thumbnail").evaluateAll((nodes) =>
      nodes.map((node) => ({
        tag: node.tagName,
        text: node.textContent,
        // A drawn image has pixels; a broken one has none.
        drawn: node instanceof HTMLImageElement ? node.complete && node.naturalWidth > 0 : null,
        colour: (() => {
          if (!(node instanceof HTMLImageElement) || node.naturalWidth === 0) return null;
          const canvas = document.createElement("canvas");
          canvas.width = node.naturalWidth;
          canvas.height = node.naturalHeight;
          const context = canvas.getContext("2d");
          context?.drawImage(node, 0, 0);
          return Array.from(context?.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data ?? []);
        })(),
      })),
    );
    // The TIFF: a real picture of its pixels (red), drawn in the browser.
    expect(thumbnails[0]).toMatchObject({ tag: "IMG", drawn: true });
    const centre = thumbnails[0]?.colour ?? [];
    for (const [c, want] of [220, 30, 30].entries())
      expect(Math.abs((centre[c] ?? 0) - want)).toBeLessThan(12);
    expect(thumbnails[1]).toMatchObject({ tag: "IMG", drawn: true });
    if (files.length === 3) expect(thumbnails[2]).toMatchObject({ tag: "SPAN", text: "HEIC" });

    // The long name is shown whole (wrapped), inside its row, and nothing spills out of the screen.
    const row = page.getByTestId("file-row").first();
    expect(await row.locator(".file-name").innerText()).toBe(longName);
    const [rowBox, nameBox] = [await row.boundingBox(), await row.locator(".file-name").boundingBox()];
    expect(nameBox && rowBox && nameBox.x + nameBox.width <= rowBox.x + rowBox.width).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.context().close();
  });
});
