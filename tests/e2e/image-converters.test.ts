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

/** Boxes of a batch row's parts (name, each size, the change, each button) that overlap each other. */
function overlapsIn(row: Element): string[] {
  const parts = Array.from(
    row.querySelectorAll(
      ".file-name, .batch-item__size, .batch-item__status > span, .batch-item__note, button",
    ),
  );
  const found: string[] = [];
  parts.forEach((a, i) => {
    const r = a.getBoundingClientRect();
    for (const b of parts.slice(i + 1)) {
      if (a.contains(b) || b.contains(a)) continue;
      const s = b.getBoundingClientRect();
      const apart = r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top;
      if (!apart) found.push(`${a.className || a.tagName} × ${b.className || b.tagName}`);
    }
  });
  return found;
}

describe("JPG to PNG on a phone (390 px), in Tamil", () => {
  it("offers no quality (PNG is lossless) and lists the batch readably: whole names, sizes on one line, nothing overlapping", async () => {
    const t = translator("ta");
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${siteUrl}/ta/tools/jpg-to-png`);
    expect(await page.getByRole("radiogroup").count()).toBe(0);
    expect(await page.locator('input[name="quality"]').count()).toBe(0);
    expect(await page.getByText(t("imageConverter.losslessNote", { format: "PNG" })).count()).toBe(1);

    const jpeg = Buffer.from(await imageFixtures.photoJpeg(320, 200));
    const names = ["photo-from-the-family-holiday-in-chennai-december-2026.jpg", "ph.jpg"];
    await page
      .getByTestId("file-input")
      .setInputFiles(names.map((name) => ({ name, mimeType: "image/jpeg", buffer: jpeg })));
    const rows = page.getByTestId("batch-item");
    await expect.poll(() => rows.count()).toBe(2);
    const readable = async (expected: readonly string[]) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const [index, name] of expected.entries()) {
        const row = rows.nth(index);
        expect(await row.evaluate(overlapsIn)).toEqual([]);
        const label = row.locator(".file-name");
        expect(await label.getAttribute("title")).toBe(name);
        expect(await label.innerText()).toBe(name);
        // Every size reads on one line ("1.4 KB", not "1.4 / KB").
        const sizes = row.locator(".batch-item__size, [data-testid='batch-sizes'] > span");
        for (const lines of await sizes.evaluateAll((nodes) =>
          nodes.map((node) => node.getClientRects().length),
        )) {
          expect(lines).toBe(1);
        }
      }
    };
    await readable(names);

    await page.getByRole("button", { name: t("imageConverter.convert", { format: "PNG" }) }).click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.locator('[data-testid="batch-item"][data-state="done"]').count()).toBe(2);
    await readable(names.map((name) => name.replace(/\.jpg$/, ".png")));
    for (const index of [0, 1]) {
      for (const lines of await rows
        .nth(index)
        .locator("[data-testid='batch-sizes'] > span")
        .evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().height))) {
        expect(lines).toBeLessThan(40);
      }
    }
    await page.context().close();
  });
});
