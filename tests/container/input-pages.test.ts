/**
 * The pages a job's inputs hold, which set an OCR job's time limit before the tool starts
 * (container/src/prepared-inputs.ts): every image kind the tool takes is counted, BMP included,
 * whose header libvips does not read (the job failed with INTERNAL before OCR started).
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { inputPages } from "../../container/src/prepared-inputs.ts";
import { textPdf } from "./fixtures.ts";
import { bmpFixture, kindFixtures, PAGE_COLOURS } from "./image-kind-fixtures.ts";

describe("inputPages", () => {
  it("counts a BMP as one page, a multi-page TIFF's pages, a PDF's pages", async () => {
    const bmp = bmpFixture({ bitCount: 24, header: 40 }, 64, 40).bytes;
    expect(await inputPages([{ name: "scan.bmp", kind: "bmp", bytes: bmp }])).toBe(1);
    const tiff = await kindFixtures.multiPageTiff();
    expect(await inputPages([{ name: "scan.tiff", kind: "tiff", bytes: tiff }])).toBe(PAGE_COLOURS.length);
    const png = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } })
        .png()
        .toBuffer(),
    );
    expect(
      await inputPages([
        { name: "a.pdf", kind: "pdf", bytes: textPdf("Pages", 3) },
        { name: "b.png", kind: "png", bytes: png },
        { name: "c.bmp", kind: "bmp", bytes: bmp },
      ]),
    ).toBe(5);
  });
});
