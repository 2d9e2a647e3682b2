import * as mupdf from "mupdf";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import signTool from "../../tools/sign/tool.ts";
import { textPdf } from "../container/fixtures.ts";
import { popplerPageTexts } from "../support/poppler.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const openPage = chromiumPages();
const siteUrl = inject("siteUrl");
const id = signTool.id;

interface Rendering {
  readonly pixels: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** Page `index` rendered at 72 dpi (RGB). */
function render(bytes: Uint8Array, index: number): Rendering {
  const doc = new mupdf.PDFDocument(bytes);
  const pixmap = doc.loadPage(index).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
  return { pixels: new Uint8Array(pixmap.getPixels()), width: pixmap.getWidth(), height: pixmap.getHeight() };
}

/** A box as fractions of the page: left, top, width, height. */
interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The pixels that differ between two renderings of a page: how many, and their bounds as fractions. */
function changes(before: Rendering, after: Rendering): { count: number; bounds: Box } {
  let count = 0;
  let [left, top, right, bottom] = [after.width, after.height, -1, -1];
  for (let y = 0; y < after.height; y++) {
    for (let x = 0; x < after.width; x++) {
      const at = (y * after.width + x) * 3;
      const differs = [0, 1, 2].some(
        (c) => Math.abs((after.pixels[at + c] ?? 0) - (before.pixels[at + c] ?? 0)) > 8,
      );
      if (!differs) continue;
      count++;
      [left, top, right, bottom] = [
        Math.min(left, x),
        Math.min(top, y),
        Math.max(right, x),
        Math.max(bottom, y),
      ];
    }
  }
  return {
    count,
    bounds: {
      x: left / after.width,
      y: top / after.height,
      width: (right + 1 - left) / after.width,
      height: (bottom + 1 - top) / after.height,
    },
  };
}

/** Where the signature's box is on the page preview, as fractions of the page. */
async function placedBox(page: Page): Promise<Box> {
  const box = await page.getByTestId("sign-box-signature").boundingBox();
  const sheet = await page.locator(".sign-editor__page").boundingBox();
  if (box === null || sheet === null) throw new Error("the signature's box is not shown");
  return {
    x: (box.x - sheet.x) / sheet.width,
    y: (box.y - sheet.y) / sheet.height,
    width: box.width / sheet.width,
    height: box.height / sheet.height,
  };
}

/**
 * Opens Sign PDF in `lang` with a 2-page PDF, makes the signature with `make`, signs and
 * downloads: page 1 must have changed only inside the box the signature was placed in (one pixel
 * of rounding at 72 dpi around it), page 2 and the text of both not at all.
 */
async function signAndCheck(lang: string, make: (page: Page) => Promise<void>): Promise<void> {
  const t = translator(lang);
  const page = await openPage();
  await page.goto(`${siteUrl}/${lang}/tools/${id}`);
  expect(await page.getByTestId("sign-notice").textContent()).toBe(t(`${id}:notice`));
  const input = textPdf("Contract", 2);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "contract.pdf", mimeType: "application/pdf", buffer: Buffer.from(input) }]);
  await page.getByTestId("sign-pad-signature").waitFor({ timeout: 30_000 });
  await make(page);
  await expect.poll(() => page.getByTestId("sign-box-signature").isVisible(), { timeout: 20_000 }).toBe(true);
  const box = await placedBox(page);

  await page.getByTestId("sign-button").click();
  await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
  const file = await downloadBytes(page, () =>
    page.getByRole("button", { name: t("result.download"), exact: true }).click(),
  );
  expect(file.name).toBe("contract-signed.pdf");
  const signed = new Uint8Array(file.bytes);
  expect(new mupdf.PDFDocument(signed).countPages()).toBe(2);
  expect(popplerPageTexts(signed)).toEqual(popplerPageTexts(input));
  const first = render(input, 0);
  const changed = changes(first, render(signed, 0));
  // Ink on some of the box, none outside it.
  expect(changed.count).toBeGreaterThan(0.01 * box.width * box.height * first.width * first.height);
  const slackX = 1.5 / first.width;
  const slackY = 1.5 / first.height;
  expect(changed.bounds.x).toBeGreaterThanOrEqual(box.x - slackX);
  expect(changed.bounds.y).toBeGreaterThanOrEqual(box.y - slackY);
  expect(changed.bounds.x + changed.bounds.width).toBeLessThanOrEqual(box.x + box.width + slackX);
  expect(changed.bounds.y + changed.bounds.height).toBeLessThanOrEqual(box.y + box.height + slackY);
  expect(changes(render(input, 1), render(signed, 1)).count).toBe(0);
  await page.context().close();
}

/** Types `name` as the signature in the "Type" tab. */
const typeName = (name: string) => async (page: Page) => {
  await page.getByTestId("sign-mode-signature-type").click();
  await page.getByTestId("sign-type-signature").fill(name);
};

/** A signature on white paper, made in code: two dark strokes across a 600 × 200 picture. */
async function paperSignature(): Promise<Buffer> {
  const [width, height] = [600, 200];
  const pixels = Buffer.alloc(width * height * 3, 250);
  for (let x = 40; x < 560; x++) {
    const wave = Math.round(100 + 50 * Math.sin(x / 40));
    for (let dy = -4; dy <= 4; dy++) {
      for (const y of [wave + dy, 150 + dy]) {
        pixels.fill(20, (y * width + x) * 3, (y * width + x) * 3 + 3);
      }
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe("Sign PDF", () => {
  it("draws a signature with the mouse, places it on page 1 and stamps it there (Hindi)", async () => {
    await signAndCheck("hi", async (page) => {
      const pad = page.getByTestId("sign-pad-signature");
      await pad.scrollIntoViewIfNeeded();
      const box = await pad.boundingBox();
      if (box === null) throw new Error("the pad is not shown");
      await page.mouse.move(box.x + 40, box.y + box.height * 0.7);
      await page.mouse.down();
      for (let step = 1; step <= 12; step++) {
        await page.mouse.move(box.x + 40 + step * 25, box.y + box.height * (0.7 - 0.4 * Math.sin(step / 2)));
      }
      await page.mouse.up();
      // The keyboard moves the placed signature too.
      await page.getByTestId("sign-box-signature").waitFor({ timeout: 10_000 });
      await page.getByTestId("sign-box-signature").focus();
      await page.keyboard.press("ArrowUp");
    });
  });

  it("types a signature in Latin letters and stamps it in its box (English)", async () => {
    await signAndCheck("en", typeName("Jane Q. Doe"));
  });

  it("types a signature in Devanagari and stamps it in its box (Hindi)", async () => {
    await signAndCheck("hi", typeName("अनीता शर्मा"));
  });

  it("uploads a picture of a signature and stamps it in its box (French)", async () => {
    const picture = await paperSignature();
    await signAndCheck("fr", async (page) => {
      await page.getByTestId("sign-mode-signature-upload").click();
      await page
        .getByTestId("sign-upload-signature")
        .setInputFiles([{ name: "signature.png", mimeType: "image/png", buffer: picture }]);
    });
  });
});
