import { describe, expect, it } from "vitest";
import { toggledRanges } from "../../client/src/components/pdf/page-picks.ts";
import { partsOfEvery, readRangesField } from "../../tools/split-pdf/page-picks.ts";

describe("Split PDF page picks", () => {
  it("reads the ranges field against the page count with the spec's errors", () => {
    expect(readRangesField("  ", 9)).toEqual({ state: "empty" });
    expect(readRangesField("1-3, 5", 9)).toEqual({ state: "valid", parts: 2, pages: new Set([1, 2, 3, 5]) });
    expect(readRangesField("1-3,12", 9)).toEqual({
      state: "invalid",
      error: { key: "invalidPage", page: "12", pages: 9 },
    });
    expect(readRangesField("1-", 9)).toEqual({ state: "invalid", error: { key: "invalidPageRanges" } });
  });

  it("toggles a clicked page and adds a shift-clicked run, joining neighbours into ranges", () => {
    expect(toggledRanges(new Set(), 4, false, null)).toBe("4");
    expect(toggledRanges(new Set([4]), 5, false, 4)).toBe("4-5");
    expect(toggledRanges(new Set([1, 2, 3]), 2, false, 3)).toBe("1,3");
    expect(toggledRanges(new Set([2]), 6, true, 2)).toBe("2-6");
    // A run backwards from the anchor, next to an existing range.
    expect(toggledRanges(new Set([9, 10]), 5, true, 8)).toBe("5-10");
    // Shift without an anchor is a plain click.
    expect(toggledRanges(new Set([1]), 3, true, null)).toBe("1,3");
  });

  it("counts the parts of every N pages", () => {
    expect([partsOfEvery(7, 3), partsOfEvery(6, 3), partsOfEvery(1, 100)]).toEqual([3, 2, 1]);
  });
});
