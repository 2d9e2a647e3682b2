import { describe, expect, it } from "vitest";
import {
  formatPageRanges,
  pageRangeErrorContext,
  pagesOf,
  parsePageRanges,
  rangesOfPages,
} from "../../contract/index.ts";

describe("parsePageRanges", () => {
  it("reads the spec's example and keeps the typed order", () => {
    const parsed = parsePageRanges(" 1-3, 5,7 - 9 ", 10);
    expect(parsed).toEqual({
      ok: true,
      ranges: [
        { start: 1, end: 3 },
        { start: 5, end: 5 },
        { start: 7, end: 9 },
      ],
    });
    const reversed = parsePageRanges("5,1-2", 5);
    expect(reversed.ok && pagesOf(reversed.ranges)).toEqual([5, 1, 2]);
  });

  it("means every page when blank", () => {
    expect(parsePageRanges("  ", 4)).toEqual({ ok: true, ranges: [{ start: 1, end: 4 }] });
  });

  it("answers the spec's errors with their values", () => {
    expect(parsePageRanges("1-3;5", 9)).toEqual({ ok: false, error: { key: "invalidPageRanges" } });
    expect(parsePageRanges("a", 9)).toEqual({ ok: false, error: { key: "invalidPageRanges" } });
    expect(parsePageRanges("1-", 9)).toEqual({ ok: false, error: { key: "invalidPageRanges" } });
    expect(parsePageRanges("2-12", 9)).toEqual({
      ok: false,
      error: { key: "invalidRange", range: "2-12", pages: 9 },
    });
    expect(parsePageRanges("5-2", 9)).toEqual({
      ok: false,
      error: { key: "invalidRange", range: "5-2", pages: 9 },
    });
    expect(parsePageRanges("0-2", 9)).toEqual({
      ok: false,
      error: { key: "invalidRange", range: "0-2", pages: 9 },
    });
    expect(parsePageRanges("1,10", 9)).toEqual({
      ok: false,
      error: { key: "invalidPage", page: "10", pages: 9 },
    });
    expect(parsePageRanges("0", 9)).toEqual({
      ok: false,
      error: { key: "invalidPage", page: "0", pages: 9 },
    });
  });

  it("writes pages picked one by one back as the fewest ranges", () => {
    const ranges = rangesOfPages([7, 1, 2, 3, 5, 2, 8]);
    expect(formatPageRanges(ranges)).toBe("1-3,5,7-8");
    const again = parsePageRanges(formatPageRanges(ranges), 8);
    expect(again.ok && again.ranges).toEqual(ranges);
    expect(formatPageRanges(rangesOfPages([]))).toBe("");
  });

  it("names the locale key and values in an error context", () => {
    expect(pageRangeErrorContext({ key: "invalidPage", page: "10", pages: 9 })).toEqual({
      page_ranges_error: "invalidPage",
      page: "10",
      pages: 9,
    });
  });
});
