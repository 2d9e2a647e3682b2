import { describe, expect, it } from "vitest";
import { declarationOf, jobTimeLimitMs, maxJobTimeLimitMs } from "../../contract/index.ts";

describe("job time limits", () => {
  const ocr = declarationOf("ocr");
  const merge = declarationOf("merge-pdf");

  it("gives an OCR job 12 s a page once that is over the base limit, up to its 40 pages", () => {
    expect([1, 10, 11, 30, 40, 400].map((pages) => jobTimeLimitMs(ocr, pages))).toEqual([
      120_000, 120_000, 132_000, 360_000, 480_000, 480_000,
    ]);
    expect(maxJobTimeLimitMs(ocr)).toBe(480_000);
  });

  it("scales the time per page with the base limit", () => {
    expect(jobTimeLimitMs(ocr, 30, 1500)).toBe(4500);
    expect(jobTimeLimitMs(ocr, 5, 1500)).toBe(1500);
  });

  it("keeps the base limit for a tool that declares no time per page", () => {
    expect([jobTimeLimitMs(merge, 5000), jobTimeLimitMs(merge, 1, 250), maxJobTimeLimitMs(merge)]).toEqual([
      120_000, 250, 120_000,
    ]);
  });
});
