/**
 * Image converter benchmark on ../shared/corpus/img, side by side in one run:
 * 1. JPEG bytes at equal SSIM: our edge path (MozJPEG WASM, engines/image/convert-image.ts) against
 *    sharp `mozjpeg: true` at the same settings' reference, over qualities 50–95; the bytes each
 *    needs to reach SSIM 0.97 / 0.98 / 0.99 / 0.995 (against the source decoded, oriented and flattened by
 *    libvips) are interpolated on its curve, and the ratio ours/sharp is given per image and as a
 *    geometric mean (≤ 1.00 is the target), by the standard SSIM (averaged down to viewing scale)
 *    and by SSIM at full resolution (every pixel). Images over 6 MP are first scaled to 4 MP (sharp, PNG)
 *    to keep the run short; the scaled copy is the source of both sides.
 * 2. Time and peak memory per megapixel of each converter tool's conversion at medium quality
 *    (PNG→JPG, JPG→PNG, WebP→JPG; other kinds to JPG), edge path and container path (sharp), each
 *    in its own child process after a warm-up on a small image: peak = highest resident memory
 *    sampled during the conversion (from a worker thread) − resident memory before it.
 * Run: `npm run bench:image-convert` (`-- --ssim` or `-- --speed` for one part).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import sharp from "sharp";
import { loadNodeCodecs } from "../engines/image/codecs.node.ts";
import type { ImageTarget } from "../engines/image/conversion-plan.ts";
import { convertImage } from "../engines/image/convert-image.ts";
import { convertibleAtEdge, readImageInfo } from "../engines/image/image-info.ts";
import { sharpConvertImage } from "../engines/image/sharp-convert-image.ts";
import { type SsimImage, ssim } from "../tests/support/ssim.ts";

const corpus = fileURLToPath(new URL("../../shared/corpus/img/", import.meta.url));
const QUALITIES = [20, 35, 50, 65, 75, 85, 92, 97];
const TARGET_SSIM = [0.97, 0.98, 0.99, 0.995];
const SCALE_ABOVE = 6e6;
const SCALED_PIXELS = 4e6;
const noProgress = () => {};

const targetOf = (kind: string): ImageTarget => (kind === "jpeg" ? "png" : "jpeg");

async function pixels(bytes: Uint8Array | Buffer): Promise<SsimImage> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data, channels: info.channels as 3 };
}

/** Bytes needed to reach `target` SSIM on a curve of (ssim, bytes) points, by linear interpolation. */
function bytesAt(curve: readonly { ssim: number; bytes: number }[], target: number): number {
  const sorted = [...curve].sort((a, b) => a.ssim - b.ssim);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    if (a && b && a.ssim <= target && target <= b.ssim) {
      return a.bytes + ((b.bytes - a.bytes) * (target - a.ssim)) / Math.max(1e-9, b.ssim - a.ssim);
    }
  }
  return Number.NaN;
}

async function benchSource(file: string): Promise<{ source: Uint8Array; scaled: boolean }> {
  const bytes = new Uint8Array(readFileSync(join(corpus, file)));
  const info = readImageInfo(bytes);
  if (info.width * info.height <= SCALE_ABOVE || !convertibleAtEdge(info))
    return { source: bytes, scaled: false };
  const scale = Math.sqrt(SCALED_PIXELS / (info.width * info.height));
  const source = new Uint8Array(
    await sharp(bytes)
      .rotate()
      .resize(Math.round(info.width * scale))
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
  return { source, scaled: true };
}

const SCALES = { standard: "viewing", "full-resolution": "full" } as const;
type ScaleName = keyof typeof SCALES;
type Curve = { ssim: number; bytes: number }[];

async function equalSsimTable(files: readonly string[]): Promise<void> {
  const rows: Record<ScaleName, string[]> = { standard: [], "full-resolution": [] };
  const logs = {
    standard: TARGET_SSIM.map(() => [] as number[]),
    "full-resolution": TARGET_SSIM.map(() => [] as number[]),
  };
  for (const file of files) {
    const { source: input, scaled } = await benchSource(file);
    const info = readImageInfo(input);
    if (!convertibleAtEdge(info)) {
      for (const name of Object.keys(SCALES) as ScaleName[])
        rows[name].push(`| ${file} | (colour transform or GIF: container only) |`);
      continue;
    }
    const reference = await pixels(input);
    const ours: Record<ScaleName, Curve> = { standard: [], "full-resolution": [] };
    const theirs: Record<ScaleName, Curve> = { standard: [], "full-resolution": [] };
    const measure = async (bytes: Uint8Array | Buffer, into: Record<ScaleName, Curve>) => {
      const decoded = await pixels(bytes);
      for (const [name, scale] of Object.entries(SCALES) as [ScaleName, "viewing" | "full"][])
        into[name].push({ ssim: ssim(reference, decoded, { scale }), bytes: bytes.length });
    };
    for (const quality of QUALITIES) {
      const settings = { target: "jpeg" as const, quality, maxPixels: Number.POSITIVE_INFINITY };
      await measure((await convertImage(input, settings, loadNodeCodecs, noProgress)).bytes, ours);
      const ref = await sharp(input)
        .rotate()
        .flatten({ background: "#ffffff" })
        .jpeg({ quality, mozjpeg: true })
        .toBuffer();
      await measure(ref, theirs);
    }
    for (const name of Object.keys(SCALES) as ScaleName[]) {
      const ratios = TARGET_SSIM.map((target) => bytesAt(ours[name], target) / bytesAt(theirs[name], target));
      ratios.forEach((ratio, i) => {
        if (Number.isFinite(ratio)) logs[name][i]?.push(Math.log(ratio));
      });
      rows[name].push(
        `| ${file}${scaled ? " (scaled to 4 MP)" : ""} | ${ratios.map((r) => (Number.isFinite(r) ? r.toFixed(4) : "n/a")).join(" | ")} |`,
      );
    }
  }
  for (const name of Object.keys(SCALES) as ScaleName[]) {
    console.log(`\n## JPEG bytes at equal ${name} SSIM: ours (edge, MozJPEG WASM) / sharp mozjpeg:true\n`);
    console.log(`| image | ${TARGET_SSIM.map((s) => `@${s}`).join(" | ")} |`);
    console.log(`|---|${TARGET_SSIM.map(() => "---").join("|")}|`);
    for (const row of rows[name]) console.log(row);
    const means = logs[name].map((values) =>
      Math.exp(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)),
    );
    console.log(`| **geometric mean** | ${means.map((m) => `**${m.toFixed(4)}**`).join(" | ")} |`);
  }
  console.log("\nn/a: both encoders stay above that SSIM even at quality 20 (or below it at 97).");
}

/**
 * Samples the process's resident memory every 2 ms from a worker thread, which keeps running while
 * the main thread is inside a synchronous WASM call; `stop` resolves with the highest sample.
 */
function rssSampler(): { stop: () => Promise<number> } {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     let max = process.memoryUsage.rss();
     const timer = setInterval(() => { max = Math.max(max, process.memoryUsage.rss()); }, 2);
     parentPort.on("message", () => { clearInterval(timer); parentPort.postMessage(max); });`,
    { eval: true },
  );
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once("message", (max: number) => {
          void worker.terminate();
          resolve(max);
        });
        worker.postMessage("stop");
      }),
  };
}

/** Child process: one conversion, printing JSON {ms, peakMb, bytes}. */
async function runOne(path: "edge" | "container", file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(join(corpus, file)));
  const info = readImageInfo(bytes);
  const target = targetOf(info.kind);
  const settings = { target, quality: 85 };
  const convert = (input: Uint8Array) =>
    path === "edge"
      ? convertImage(input, { ...settings, maxPixels: Number.POSITIVE_INFINITY }, loadNodeCodecs, noProgress)
      : sharpConvertImage(input, settings, noProgress);
  // Warm-up on a small image of the same kind: codecs compiled and instantiated, libvips loaded.
  const small = await sharp(bytes, { pages: 1 })
    .resize(16, 16)
    .toFormat(info.kind === "heic" || info.kind === "bmp" ? "png" : info.kind)
    .toBuffer();
  await convert(new Uint8Array(small)).catch(() => undefined);
  const sampler = rssSampler();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const base = process.memoryUsage.rss();
  const started = performance.now();
  const output = await convert(bytes);
  const ms = performance.now() - started;
  const peakMb = ((await sampler.stop()) - base) / 1024 / 1024;
  console.log(JSON.stringify({ ms, peakMb, bytes: output.bytes.length }));
}

function measure(path: "edge" | "container", file: string) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--one", path, file], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const line = child.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line) as { ms: number; peakMb: number; bytes: number };
  } catch {
    return undefined;
  }
}

function speedTable(files: readonly string[]): void {
  console.log("\n## Time and peak memory per megapixel, medium quality (one child process per run)\n");
  console.log(
    "| image | MP | to | edge ms/MP | container ms/MP | time edge/container | edge MB/MP | container MB/MP | bytes edge/container |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const file of files) {
    const info = readImageInfo(new Uint8Array(readFileSync(join(corpus, file))));
    const mp = (info.width * info.height) / 1e6;
    const target = targetOf(info.kind).toUpperCase();
    const container = measure("container", file);
    const edge = convertibleAtEdge(info) ? measure("edge", file) : undefined;
    const cell = (value: number | undefined, digits = 0) =>
      value === undefined ? "–" : value.toFixed(digits);
    console.log(
      `| ${file} | ${mp.toFixed(1)} | ${target} | ${cell(edge && edge.ms / mp)} | ${cell(container && container.ms / mp)} | ` +
        `${cell(edge && container && edge.ms / container.ms, 2)} | ${cell(edge && edge.peakMb / mp, 1)} | ` +
        `${cell(container && container.peakMb / mp, 1)} | ${cell(edge && container && edge.bytes / container.bytes, 3)} |`,
    );
  }
  console.log("\n– : the edge sends the image to the container (colour transform or GIF).");
}

const args = process.argv.slice(2);
if (args[0] === "--one") {
  await runOne(args[1] === "edge" ? "edge" : "container", args[2] ?? "");
} else if (!existsSync(corpus)) {
  console.log(`No corpus at ${corpus}: nothing to measure.`);
} else {
  const files = readdirSync(corpus).filter((f) => /\.(png|jpe?g|webp|gif)$/i.test(f));
  if (args[0] !== "--speed") await equalSsimTable(files.filter((f) => !f.endsWith(".gif")));
  if (args[0] !== "--ssim") speedTable(files);
}
