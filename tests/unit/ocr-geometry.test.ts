/**
 * The geometry of OCR's page turns (engines/ocr/tesseract.ts): which turn a reading asks for, an
 * image turned in memory, and word boxes moved onto the turned image, checked against each other.
 */
import { describe, expect, it } from "vitest";
import {
  cropImage,
  type GreyImage,
  type OcrLine,
  type OcrWord,
  readingTurn,
  turnImage,
  turnLines,
} from "../../engines/ocr/tesseract.ts";

/** A 3 × 2 image whose samples are 0..5 row by row. */
const image: GreyImage = { width: 3, height: 2, samples: Uint8Array.from([0, 1, 2, 3, 4, 5]), dpi: 200 };

function word(
  text: string,
  left: number,
  top: number,
  width: number,
  height: number,
  confidence = 95,
): OcrWord {
  return { text, left, top, width, height, confidence };
}

function line(words: OcrWord[]): OcrLine {
  const left = Math.min(...words.map((w) => w.left));
  const top = Math.min(...words.map((w) => w.top));
  const right = Math.max(...words.map((w) => w.left + w.width));
  const bottom = Math.max(...words.map((w) => w.top + w.height));
  return { words, left, top, width: right - left, height: bottom - top };
}

describe("turnImage", () => {
  it("turns clockwise by quarters, 0 leaving the image as it is", () => {
    expect(turnImage(image, 0)).toBe(image);
    // 0 1 2      3 0
    // 3 4 5  ->  4 1
    //            5 2
    expect(turnImage(image, 90)).toMatchObject({
      width: 2,
      height: 3,
      samples: Uint8Array.from([3, 0, 4, 1, 5, 2]),
    });
    expect(turnImage(image, 180)).toMatchObject({
      width: 3,
      height: 2,
      samples: Uint8Array.from([5, 4, 3, 2, 1, 0]),
    });
    expect(turnImage(image, 270)).toMatchObject({
      width: 2,
      height: 3,
      samples: Uint8Array.from([2, 5, 1, 4, 0, 3]),
    });
    expect(image.samples).toEqual(Uint8Array.from([0, 1, 2, 3, 4, 5]));
  });

  it("agrees with turnLines: a one-pixel box lands on the pixel the image moved there", () => {
    for (const turn of [90, 180, 270] as const) {
      const turned = turnImage(image, turn);
      for (let y = 0; y < image.height; y++)
        for (let x = 0; x < image.width; x++) {
          const [moved] = turnLines([line([word("abc", x, y, 1, 1)])], turn, image.width, image.height);
          const box = moved?.words[0];
          expect(box?.width).toBe(1);
          expect(turned.samples[(box?.top ?? 0) * turned.width + (box?.left ?? 0)]).toBe(y * image.width + x);
        }
    }
  });
});

describe("cropImage", () => {
  it("copies the box, clipped to the image", () => {
    expect(cropImage(image, { left: 1, top: 0, width: 5, height: 2 })).toMatchObject({
      width: 2,
      height: 2,
      samples: Uint8Array.from([1, 2, 4, 5]),
    });
  });
});

describe("readingTurn", () => {
  const across = [line([word("first", 10, 10, 50, 12), word("second", 70, 10, 60, 12)])];
  it("is 0 for words read across the page with confidence", () => {
    expect(readingTurn(across)).toBe(0);
  });

  it("is 270 for vertical lines read downwards, 90 upwards", () => {
    const down = [line([word("first", 10, 10, 12, 50), word("second", 10, 70, 12, 60)])];
    expect(readingTurn(down)).toBe(270);
    const up = [line([word("first", 10, 70, 12, 50), word("second", 10, 10, 12, 60)])];
    expect(readingTurn(up)).toBe(90);
  });

  it("does not tell from words read with little confidence, or from none", () => {
    expect(readingTurn([line([word("xqzt", 10, 10, 50, 12, 30), word("vwk", 70, 10, 40, 12, 35)])])).toBe(
      undefined,
    );
    expect(readingTurn([])).toBe(undefined);
  });
});
