/**
 * The Sign PDF engine step (tools/sign/stamp-signature.ts) on PDFs built in code: the signature
 * lands in the placed box, nothing else on that page or on the other pages changes (pixels), and
 * the text stays text.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { stampSignature } from "../../tools/sign/stamp-signature.ts";
import tool from "../../tools/sign/tool.ts";
import { engineFailure } from "./engine-failure.ts";
import { pageText, pageTexts, textPdf } from "./fixtures.ts";

/** A 200×100 signature: a solid blue left half, a transparent right half. */
async function signaturePng(): Promise<Uint8Array> {
  const width = 200;
  const height = 100;
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width / 2; x++) pixels.set([0, 0, 255, 255], (y * width + x) * 4);
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** Runs the engine as the converter does: options through the tool's schema, the image as its field. */
async function sign(
  pdf: Uint8Array,
  signature: Uint8Array,
  placements: readonly Record<string, unknown>[],
): Promise<{ bytes: Uint8Array; pages: number }> {
  const options = tool.options.parse({ placements: JSON.stringify(placements) });
  const output = await stampSignature([{ name: "in.pdf", kind: "pdf", bytes: pdf }], options, () => {}, {
    signature: { name: "signature.png", kind: "png", bytes: signature },
  });
  return { bytes: output.bytes, pages: Number(output.facts.pages) };
}

/** Page `index` rendered at 72 dpi as RGB rows. */
function render(bytes: Uint8Array, index: number): { width: number; height: number; pixels: Uint8Array } {
  const doc = new mupdf.PDFDocument(bytes);
  const pixmap = doc.loadPage(index).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
  return { width: pixmap.getWidth(), height: pixmap.getHeight(), pixels: new Uint8Array(pixmap.getPixels()) };
}

const pixel = (page: ReturnType<typeof render>, x: number, y: number) => {
  const i = (y * page.width + x) * 3;
  return [...page.pixels.subarray(i, i + 3)];
};

describe("stampSignature", () => {
  it("draws the signature where it is placed and changes nothing else", async () => {
    const input = textPdf("Contract", 3);
    const placement = { page: 2, x: 0.5, y: 0.75, width: 0.2 };
    const { bytes, pages } = await sign(input, await signaturePng(), [placement]);
    expect(pages).toBe(3);
    const before = render(input, 1);
    const after = render(bytes, 1);
    // 595 × 842 points: the box starts at (297.5, 631.5), 119 wide and 59.5 high.
    const box = { left: 297.5, top: 631.5, width: 119, height: 59.5 };
    expect(pixel(after, Math.round(box.left + box.width / 4), Math.round(box.top + box.height / 2))).toEqual([
      0, 0, 255,
    ]);
    // The transparent half shows the page beneath (white).
    expect(
      pixel(after, Math.round(box.left + (box.width * 3) / 4), Math.round(box.top + box.height / 2)),
    ).toEqual([255, 255, 255]);
    let changedOutside = 0;
    const firstChanged: number[][] = [];
    for (let y = 0; y < after.height; y++) {
      for (let x = 0; x < after.width; x++) {
        const inside =
          x >= box.left - 1 &&
          x <= box.left + box.width + 1 &&
          y >= box.top - 1 &&
          y <= box.top + box.height + 1;
        if (inside) continue;
        const i = (y * after.width + x) * 3;
        // A page with a soft-masked image is composited as a transparency group: glyph edges may
        // round one level differently, so a change is more than 2 levels in a channel.
        const a = after.pixels;
        const b = before.pixels;
        const diff = Math.max(
          Math.abs((a[i] ?? 0) - (b[i] ?? 0)),
          Math.abs((a[i + 1] ?? 0) - (b[i + 1] ?? 0)),
          Math.abs((a[i + 2] ?? 0) - (b[i + 2] ?? 0)),
        );
        if (diff > 2) {
          changedOutside++;
          if (firstChanged.length < 3) firstChanged.push([x, y, after.pixels[i] ?? 0, before.pixels[i] ?? 0]);
        }
      }
    }
    expect(firstChanged).toEqual([]);
    expect(changedOutside).toBe(0);
    for (const other of [0, 2]) {
      const same = Buffer.from(render(bytes, other).pixels).equals(Buffer.from(render(input, other).pixels));
      expect([other, same]).toEqual([other, true]);
    }
    expect(pageTexts(new mupdf.PDFDocument(bytes))).toEqual([0, 1, 2].map((i) => pageText("Contract", i)));
  });

  it("places by the page as seen on a rotated page", async () => {
    const doc = new mupdf.PDFDocument(textPdf("Turned", 1));
    doc.findPage(0).put("Rotate", 90);
    const input = doc.saveToBuffer("").asUint8Array().slice();
    const { bytes } = await sign(input, await signaturePng(), [{ page: 1, x: 0.1, y: 0.1, width: 0.2 }]);
    const after = render(bytes, 0);
    // Seen rotated, the page is 842 wide and 595 high: the box's blue half starts at (84.2, 59.5).
    expect(after.width).toBe(842);
    expect(pixel(after, 84 + 20, 59 + 20)).toEqual([0, 0, 255]);
  });

  it("refuses a page the PDF does not have and an image it cannot read", async () => {
    const input = textPdf("Short", 1);
    const png = await signaturePng();
    expect((await engineFailure(sign(input, png, [{ page: 2, x: 0, y: 0, width: 0.1 }]))).code).toBe(
      "INVALID_OPTIONS",
    );
    expect(
      (await engineFailure(sign(input, new Uint8Array([1, 2, 3]), [{ page: 1, x: 0, y: 0, width: 0.1 }])))
        .code,
    ).toBe("IMAGE_DAMAGED");
  });
});
