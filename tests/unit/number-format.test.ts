import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { formatFileSize, formatLimit } from "../../client/src/lib/format/file-size";
import { formatCount } from "../../client/src/lib/format/number";
import { LANGUAGE_CODES } from "../../contract/languages";

/** A stand-in for i18next's t that shows which unit key was chosen and the value it was given. */
const t = ((key: string, options: { value: string }) => `${key}:${options.value}`) as unknown as TFunction;

describe("formatCount", () => {
  it.each(LANGUAGE_CODES)("writes whole numbers below 1000 as Intl does in %s", (language) => {
    const intl = new Intl.NumberFormat(language);
    for (const value of [0, 1, 7, 42, 100, 999])
      expect(formatCount(value, language)).toBe(intl.format(value));
  });

  it("uses Intl for large and fractional numbers", () => {
    expect(formatCount(1234567, "de")).toBe("1.234.567");
    expect(formatCount(1234567, "hi")).toBe("12,34,567");
    expect(formatCount(2.5, "fr")).toBe("2,5");
  });
});

describe("file sizes (spec §9)", () => {
  it("gives bytes under 1 KB, KB with one decimal under 1 MB, MB with two decimals above", () => {
    expect(formatFileSize(512, t, "en")).toBe("units.bytes:512");
    expect(formatFileSize(4813, t, "en")).toBe("units.kb:4.7");
    expect(formatFileSize(4813, t, "de")).toBe("units.kb:4,7");
    expect(formatFileSize(5 * 1024 * 1024 + 10_000, t, "fr")).toBe("units.mb:5,01");
  });

  it("gives whole-megabyte limits without decimals", () => {
    expect(formatLimit(100 * 1024 * 1024, t, "ta")).toBe("units.mb:100");
    expect(formatLimit(1536 * 1024, t, "en")).toBe("units.mb:1.50");
  });
});
