/** The structural check of encoded JPEGs (engines/image/jpeg-check.ts) on libjpeg output and the corpus. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { checkJpeg } from "../../engines/image/jpeg-check.ts";

const PROGRESSIVE_PHOTO = resolve(
  import.meta.dirname,
  "../../../shared/corpus/img/photo_elephants_progressive_17.9MP.jpg",
);

async function encode(options: { progressive: boolean; grey?: boolean }): Promise<Uint8Array> {
  const raw = Buffer.alloc(120 * 80 * 3).map((_, i) => (i * 13) % 256);
  let image = sharp(raw, { raw: { width: 120, height: 80, channels: 3 } });
  if (options.grey) image = image.toColourspace("b-w");
  return new Uint8Array(await image.jpeg({ quality: 80, progressive: options.progressive }).toBuffer());
}

function failure(check: () => void): string {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INTERNAL");
    return (error as AppError).message;
  }
  throw new Error("the check passed");
}

/** Offset of the last SOS marker. */
const lastScan = (bytes: Uint8Array) => bytes.findLastIndex((b, i) => b === 0xff && bytes[i + 1] === 0xda);

describe("checkJpeg", () => {
  const encoded: Record<"baseline" | "progressive", Uint8Array> = {
    baseline: new Uint8Array(),
    progressive: new Uint8Array(),
  };
  beforeAll(async () => {
    encoded.baseline = await encode({ progressive: false });
    encoded.progressive = await encode({ progressive: true });
  });

  it("accepts baseline, progressive and grey JPEGs of the expected size", async () => {
    expect(() => checkJpeg(encoded.baseline, { width: 120, height: 80, components: 3 })).not.toThrow();
    expect(() => checkJpeg(encoded.progressive, { width: 120, height: 80, components: 3 })).not.toThrow();
    const grey = await encode({ progressive: true, grey: true });
    expect(() => checkJpeg(grey, { width: 120, height: 80, components: 1 })).not.toThrow();
  });

  it("refuses a wrong size or component count", () => {
    expect(failure(() => checkJpeg(encoded.baseline, { width: 80, height: 120, components: 3 }))).toMatch(
      /120×80/,
    );
    expect(failure(() => checkJpeg(encoded.baseline, { width: 120, height: 80, components: 1 }))).toMatch(
      /components/,
    );
  });

  it("refuses files cut short, without SOI, or with data after EOI", () => {
    const jpeg = encoded.progressive;
    const expected = { width: 120, height: 80, components: 3 };
    expect(failure(() => checkJpeg(jpeg.subarray(0, jpeg.length - 100), expected))).toMatch(/EOI/);
    expect(failure(() => checkJpeg(jpeg.subarray(2), expected))).toMatch(/SOI/);
    const trailing = new Uint8Array([...jpeg.subarray(0, -2), 0xff, 0xd9, 0, 0xff, 0xd9]);
    expect(failure(() => checkJpeg(trailing, expected))).toMatch(/EOI before the end/);
  });

  it("refuses a progressive JPEG whose last refinement scan is missing", () => {
    const jpeg = encoded.progressive;
    const withoutLastScan = new Uint8Array([...jpeg.subarray(0, lastScan(jpeg)), 0xff, 0xd9]);
    expect(failure(() => checkJpeg(withoutLastScan, { width: 120, height: 80, components: 3 }))).toMatch(
      /unfinished/,
    );
  });

  it.skipIf(!existsSync(PROGRESSIVE_PHOTO))("accepts a real progressive camera JPEG of 17.9 MP", () => {
    const bytes = new Uint8Array(readFileSync(PROGRESSIVE_PHOTO));
    expect(() => checkJpeg(bytes, { width: 5640, height: 3172, components: 3 })).not.toThrow();
  });
});
