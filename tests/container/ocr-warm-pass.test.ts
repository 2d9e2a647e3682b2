/**
 * Tesseract passes started ahead (engines/ocr/tesseract.ts): while a pass reads, a process with the
 * same arguments is started and waits with its models loaded, and the next page read the same way
 * goes to it; it reads that page exactly as a process started for it does.
 */
import { readdirSync, readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { recognise } from "../../engines/ocr/tesseract.ts";
import { scanImage } from "../support/scan-pages.ts";

/** This process's `tesseract` children: pid and arguments. */
function tesseractChildren(): { pid: number; args: string }[] {
  return readdirSync("/proc").flatMap((entry) => {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) return [];
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== process.pid || !stat.includes("(tesseract)")) return [];
      return [{ pid, args: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim() }];
    } catch {
      return [];
    }
  });
}

describe("Tesseract passes started ahead", () => {
  it("leaves a process of the same arguments waiting after a pass, and reads the next page with it", async () => {
    const jpeg = await scanImage({ markdown: "# Letter\n\nThe quick brown fox jumps over the lazy dog." });
    const { width = 0, height = 0 } = await sharp(jpeg).metadata();
    const page = { dpi: 200, width, height, jpeg };
    const first = await recognise(page, "eng");
    const waiting = tesseractChildren().filter((child) => child.args.includes("-l eng"));
    expect(waiting.map((child) => child.args)).toEqual(["tesseract stdin stdout --dpi 200 -l eng tsv"]);
    const second = await recognise(page, "eng");
    expect(second).toEqual(first);
    const now = tesseractChildren().filter((child) => child.args.includes("-l eng"));
    // The waiting one read the second page and exited; a new one waits for the next.
    expect(now).toHaveLength(1);
    expect(now[0]?.pid).not.toBe(waiting[0]?.pid);
    expect(first.flatMap((line) => line.words.map((word) => word.text)).join(" ")).toContain("brown fox");
  });

  it("starts the next pass while the page is read, not after: the page does not wait for the fork", async () => {
    const jpeg = await scanImage({
      markdown: "# Notice\n\nEvery page waits for nothing but its own reading.",
    });
    const { width = 0, height = 0 } = await sharp(jpeg).metadata();
    const page = { dpi: 150, width, height, jpeg };
    const reading = recognise(page, "eng");
    // Right after the page is handed over: the pass reading it and the next one, already started.
    const during = tesseractChildren().filter((child) => child.args.includes("--dpi 150 -l eng"));
    await reading;
    expect(during).toHaveLength(2);
    const after = tesseractChildren().filter((child) => child.args.includes("--dpi 150 -l eng"));
    expect(after).toHaveLength(1);
    expect(during.map((child) => child.pid)).toContain(after[0]?.pid);
  });
});
