/**
 * Compress image benchmark on ../shared/corpus/img, side by side in one run:
 * 1. JPEG: our engine at medium (MozJPEG q85) against sharp `mozjpeg:true` at the lowest quality
 *    whose SSIM reaches ours (binary search over 30–100): bytes at equal SSIM (≤ 1.00 is the goal).
 * 2. PNG at medium: ours (libimagequant palette with an SSIM floor, lossless fallback) against the
 *    `pngquant` CLI (`--quality 0-85 --speed 3`, the original kept when it fails or grows the file,
 *    as a user would) and lossless zlib level 9 with adaptive filters (sharp): aggregate out/in
 *    (goal ≤ 0.40), lowest SSIM (goal ≥ 0.95 for every image) and time per megapixel.
 * 3. Every image at medium: out/in, how it was made, time per megapixel.
 * SSIM is engines/image/compress-fidelity.ts for every tool alike (upright, over white and black
 * for transparent images, large images compared at 1024 px on the short side).
 * Run: `npm run bench:compress-image` (installs pngquant with apt when missing).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { type FileKind, sniffFileKind } from "../contract/index.ts";
import { fidelity } from "../engines/image/compress-fidelity.ts";
import { compressImage } from "../engines/image/compress-image.ts";
import { readImageInfo } from "../engines/image/image-info.ts";

sharp.cache(false);
const corpus = fileURLToPath(new URL("../../shared/corpus/img/", import.meta.url));

function ensureTool(command: string, aptPackage: string): boolean {
  if (spawnSync("which", [command]).status === 0) return true;
  console.log(`${command} is missing: installing ${aptPackage} with apt-get.`);
  spawnSync("apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=300", aptPackage], { stdio: "inherit" });
  return spawnSync("which", [command]).status === 0;
}

interface Image {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
  readonly megapixels: number;
  readonly alpha: boolean;
}

function loadCorpus(): Image[] {
  return readdirSync(corpus)
    .sort()
    .flatMap((name) => {
      const bytes = new Uint8Array(readFileSync(join(corpus, name)));
      const kind = sniffFileKind(bytes.subarray(0, 16));
      if (kind !== "jpeg" && kind !== "png" && kind !== "webp" && kind !== "gif") return [];
      const info = readImageInfo(bytes);
      return [
        { name, kind, bytes, megapixels: (info.width * info.height) / 1e6, alpha: info.hasAlpha !== false },
      ];
    });
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

async function ours(image: Image, quality: "medium" | number = "medium") {
  return timed(() =>
    compressImage([{ name: image.name, kind: image.kind, bytes: image.bytes }], { quality }, () => {}),
  );
}

const fixed = (value: number, digits = 3) => value.toFixed(digits);
const pad = (cells: readonly string[], widths: readonly number[]) =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");

function table(title: string, header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? "").length)));
  console.log(`\n${title}`);
  console.log(pad(header, widths));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(pad(row, widths));
}

async function sharpMozjpeg(bytes: Uint8Array, quality: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(bytes).rotate().jpeg({ quality, mozjpeg: true }).toBuffer());
}

/** sharp MozJPEG at the lowest quality whose SSIM reaches `target`. */
async function sharpAtSsim(bytes: Uint8Array, target: number) {
  let low = 30;
  let high = 100;
  let best = await sharpMozjpeg(bytes, high);
  let bestScore = await fidelity(bytes, best, false);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const candidate = await sharpMozjpeg(bytes, middle);
    const score = await fidelity(bytes, candidate, false);
    if (score >= target) {
      high = middle;
      best = candidate;
      bestScore = score;
    } else low = middle + 1;
  }
  return { bytes: best, quality: high, ssim: bestScore };
}

async function jpegTable(images: readonly Image[]): Promise<void> {
  const rows: string[][] = [];
  let ourTotal = 0;
  let sharpTotal = 0;
  for (const image of images.filter((i) => i.kind === "jpeg")) {
    const { value } = await ours(image);
    const mine = value.bytes;
    const score = await fidelity(image.bytes, mine, false);
    const reference = await sharpAtSsim(image.bytes, score);
    ourTotal += mine.length;
    sharpTotal += reference.bytes.length;
    rows.push([
      image.name,
      fixed(image.megapixels, 1),
      String(mine.length),
      fixed(score, 4),
      String(reference.bytes.length),
      String(reference.quality),
      fixed(reference.ssim, 4),
      fixed(mine.length / reference.bytes.length),
    ]);
  }
  rows.push(["TOTAL", "", String(ourTotal), "", String(sharpTotal), "", "", fixed(ourTotal / sharpTotal)]);
  table(
    "JPEG at medium: our bytes vs sharp mozjpeg:true at equal SSIM (ratio ≤ 1.00 is the goal)",
    ["image", "MP", "ours B", "our SSIM", "sharp B", "sharp q", "sharp SSIM", "ours/sharp"],
    rows,
  );
}

function pngquant(bytes: Uint8Array, dir: string): Uint8Array | null {
  const input = join(dir, "in.png");
  const output = join(dir, "out.png");
  writeFileSync(input, bytes);
  rmSync(output, { force: true });
  const run = spawnSync("pngquant", [
    "--quality",
    "0-85",
    "--speed",
    "3",
    "--strip",
    "--output",
    output,
    input,
  ]);
  return run.status === 0 && existsSync(output) ? new Uint8Array(readFileSync(output)) : null;
}

async function lossless(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(bytes).rotate().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer(),
  );
}

interface PngTotals {
  input: number;
  output: number;
  minSsim: number;
  ms: number;
}

async function pngTable(images: readonly Image[], hasPngquant: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-compress-image-"));
  const names = ["ours", "pngquant", "lossless"] as const;
  const totals = Object.fromEntries(
    names.map((n) => [n, { input: 0, output: 0, minSsim: 1, ms: 0 } satisfies PngTotals]),
  ) as Record<(typeof names)[number], PngTotals>;
  let megapixels = 0;
  const rows: string[][] = [];
  for (const image of images.filter((i) => i.kind === "png")) {
    megapixels += image.megapixels;
    const mine = await ours(image);
    const quant = hasPngquant ? await timed(async () => pngquant(image.bytes, dir)) : null;
    const exact = await timed(() => lossless(image.bytes));
    const runs = {
      ours: { bytes: mine.value.bytes, ms: mine.ms },
      pngquant: quant ? { bytes: quant.value ?? image.bytes, ms: quant.ms } : null,
      lossless: { bytes: exact.value, ms: exact.ms },
    };
    const cells: string[] = [
      image.name,
      fixed(image.megapixels, 1),
      String(mine.value.facts.method ?? "kept"),
    ];
    for (const name of names) {
      const run = runs[name];
      if (!run) {
        cells.push("-", "-");
        continue;
      }
      // A tool's output larger than the input is not used: the user keeps the original.
      const kept = run.bytes.length < image.bytes.length ? run.bytes : image.bytes;
      const score = kept === image.bytes ? 1 : await fidelity(image.bytes, kept, image.alpha);
      const total = totals[name];
      total.input += image.bytes.length;
      total.output += kept.length;
      total.minSsim = Math.min(total.minSsim, score);
      total.ms += run.ms;
      cells.push(fixed(kept.length / image.bytes.length), fixed(score, 4));
    }
    rows.push(cells);
  }
  rmSync(dir, { recursive: true, force: true });
  const aggregate = ["AGGREGATE", fixed(megapixels, 1), ""];
  for (const name of names) {
    const total = totals[name];
    aggregate.push(
      total.input ? fixed(total.output / total.input) : "-",
      total.input ? fixed(total.minSsim, 4) : "-",
    );
  }
  rows.push(aggregate);
  table(
    "PNG at medium: out/in and SSIM (goal: aggregate ≤ 0.40, every SSIM ≥ 0.95)",
    ["image", "MP", "our method", "ours", "SSIM", "pngquant", "SSIM", "lossless", "SSIM"],
    rows,
  );
  console.log(
    `\nPNG seconds per megapixel: ${names
      .map((name) => `${name} ${totals[name].input ? fixed(totals[name].ms / 1000 / megapixels, 2) : "-"}`)
      .join(", ")}`,
  );
}

async function everyImage(images: readonly Image[]): Promise<void> {
  const rows: string[][] = [];
  for (const image of images) {
    const { value, ms } = await ours(image);
    rows.push([
      image.name,
      image.kind,
      fixed(image.megapixels, 1),
      fixed(value.bytes.length / image.bytes.length),
      value.facts.alreadyOptimized === true ? "original kept" : String(value.facts.method),
      fixed(ms / 1000 / image.megapixels, 2),
    ]);
  }
  table("Every image at medium", ["image", "type", "MP", "out/in", "made by", "s/MP"], rows);
}

if (!existsSync(corpus)) {
  console.log(`No corpus at ${corpus}: nothing to measure.`);
} else {
  const images = loadCorpus();
  const hasPngquant = ensureTool("pngquant", "pngquant");
  if (!hasPngquant) console.log("pngquant could not be installed: its column stays empty.");
  await jpegTable(images);
  await pngTable(images, hasPngquant);
  await everyImage(images);
}
