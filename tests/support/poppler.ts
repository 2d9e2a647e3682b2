/**
 * Poppler's command-line readers on a PDF in memory: an independent check of what MuPDF wrote
 * (page count, sizes and rotations from `pdfinfo`, text per page from `pdftotext`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function withFile<T>(bytes: Uint8Array, read: (file: string) => T): T {
  const folder = mkdtempSync(join(tmpdir(), "poppler-"));
  try {
    const file = join(folder, "in.pdf");
    writeFileSync(file, bytes);
    return read(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return result.stdout;
}

export interface PopplerPage {
  /** Width and height in points, as stored (before the rotation). */
  readonly width: number;
  readonly height: number;
  readonly rotation: number;
}

/** Every page's size and rotation, read by `pdfinfo`. */
export function popplerPages(bytes: Uint8Array): PopplerPage[] {
  return withFile(bytes, (file) => {
    const pages = Number(/^Pages:\s+(\d+)/m.exec(run("pdfinfo", [file]))?.[1] ?? 0);
    const info = run("pdfinfo", ["-f", "1", "-l", String(pages), file]);
    const sizes = [...info.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm)];
    const turns = [...info.matchAll(/^Page\s+\d+ rot:\s+(\d+)/gm)];
    return sizes.map((size, i) => ({
      width: Number(size[1]),
      height: Number(size[2]),
      rotation: Number(turns[i]?.[1] ?? 0),
    }));
  });
}

/** The text `pdftotext` extracts from each page, trimmed. */
export function popplerPageTexts(bytes: Uint8Array): string[] {
  return withFile(bytes, (file) =>
    run("pdftotext", ["-enc", "UTF-8", file, "-"])
      .split("\f")
      .slice(0, -1)
      .map((text) => text.trim()),
  );
}
