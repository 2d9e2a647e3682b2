/**
 * The Tesseract process that reads page after page (engines/ocr/tesseract.ts, `PageReader`): one
 * process of the same arguments reads consecutive pages with its models loaded once, each page's
 * words are its own, no page image stays behind, a process that dies fails its page with a named
 * error and the next page gets a new one, and the folder of a runner that was killed is removed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { memoryFolder, PAGE_FOLDER_BASE, recognise } from "../../engines/ocr/tesseract.ts";
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

const BASE = PAGE_FOLDER_BASE;
/** The page folders of this process's readers, and what each holds. */
const ownFolders = () =>
  readdirSync(BASE)
    .filter((name) => name.startsWith(`ocr-pages-${process.pid}-`))
    .map((name) => readdirSync(join(BASE, name)));

async function page(markdown: string, dpi: number) {
  const jpeg = await scanImage({ markdown });
  const { width = 0, height = 0 } = await sharp(jpeg).metadata();
  return { dpi, width, height, jpeg };
}
const words = (lines: Awaited<ReturnType<typeof recognise>>) =>
  lines.flatMap((line) => line.words.map((word) => word.text)).join(" ");

/** The folder a runner killed in the middle of a page left behind (its process no longer exists). */
let stale = "";
beforeAll(() => {
  const gone = spawnSync("true").pid ?? 0;
  stale = join(BASE, `ocr-pages-${gone}-left`);
  mkdirSync(stale, { recursive: true });
  writeFileSync(join(stale, "page-1.jpg"), "a page of a job whose runner was killed");
});

describe("Tesseract reading page after page", () => {
  it("reads consecutive pages with one process, each page's words its own, and keeps no page image", async () => {
    const fox = await page("# Letter\n\nThe quick brown fox jumps over the lazy dog.", 200);
    const river = await page("# Notice\n\nThe river flows quietly past the old mill.", 200);
    const first = await recognise(fox, "eng");
    const readers = tesseractChildren().filter((child) => child.args.includes("-l eng"));
    expect(readers.map((child) => child.args)).toEqual([
      "tesseract - stdout --dpi 200 -l eng tsv -c stream_filelist=true",
    ]);
    const second = await recognise(river, "eng");
    const third = await recognise(fox, "eng");
    expect(tesseractChildren().filter((child) => child.args.includes("-l eng"))).toEqual(readers);
    expect(words(first)).toContain("brown fox");
    expect(words(second)).toContain("river flows");
    expect(words(second)).not.toContain("fox");
    expect(third).toEqual(first);
    // Only the blank page that ends each page's output is left.
    expect(ownFolders()).toContainEqual(["end.pgm"]);
    expect(
      ownFolders()
        .flat()
        .filter((name) => name !== "end.pgm"),
    ).toEqual([]);
  });

  it("removes the page folder of a runner that no longer exists", () => {
    expect(existsSync(stale)).toBe(false);
  });

  it("fails a page whose process dies with INTERNAL, and reads the next page with a new process", async () => {
    const dog = await page("# Memo\n\nThe lazy dog sleeps in the afternoon sun.", 150);
    await recognise(dog, "eng");
    const [reader] = tesseractChildren().filter((child) => child.args.includes("--dpi 150 -l eng"));
    expect(reader).toBeDefined();
    const reading = recognise(dog, "eng");
    process.kill(reader?.pid ?? 0, "SIGKILL");
    await expect(reading).rejects.toMatchObject({ code: "INTERNAL" });
    expect(words(await recognise(dog, "eng"))).toContain("lazy dog");
    const now = tesseractChildren().filter((child) => child.args.includes("--dpi 150 -l eng"));
    expect(now).toHaveLength(1);
    expect(now[0]?.pid).not.toBe(reader?.pid);
  });
});

describe("where page images wait", () => {
  it("is a memory folder only with room to spare (a container's /dev/shm is often 64 MB)", () => {
    expect(memoryFolder(tmpdir(), 1)).toBe(tmpdir());
    expect(memoryFolder(tmpdir(), Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(memoryFolder("/no/such/folder", 1)).toBeUndefined();
  });
});
