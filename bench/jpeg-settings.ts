/**
 * Which MozJPEG settings give the fewest bytes at equal quality, among those BOTH image paths can
 * set (sharp in the container, @jsquash/jpeg at the edge): quantisation tables 0–8, chroma 4:2:0 or
 * 4:4:4, trellis quantisation, scan optimisation, progressive, overshoot deringing. Each variant is
 * compared in one run with the engines' setting (sharp `mozjpeg: true`, 4:2:0: ImageMagick table 3)
 * on the same sources, at equal quality measured three ways (engines/image/ssim.ts):
 * - standard SSIM (luma, averaged down by round(min side / 256), the reference implementation's),
 * - full-resolution SSIM (luma, every pixel),
 * - chroma SSIM (mean of Cb and Cr, full resolution): colour a luma score cannot see,
 * - RGB SSIM (mean of the R, G and B scores, standard scale): luma and colour in one score, so a
 *   table that wins on luma only by quantising colour more coarsely shows it here.
 * Each variant's bytes at equal SSIM are interpolated on its (SSIM, log bytes) curve over qualities
 * 15–95, and given relative to the default as a geometric mean over the images (< 1: fewer bytes).
 * Then the per-image choice the engine could make: for each image and quality, the fewest bytes of
 * any variant at any quality whose standard and full-resolution SSIM both reach the default's,
 * without and with the condition that its chroma SSIM reaches the default's too.
 * Sources: ../shared/corpus/img photos (scaled to 0.4 MP to keep the run short) and photo-like
 * images built in code. Run: `npm run bench:jpeg-settings` (about 12 min on 2 shared cores).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import sharp, { type JpegOptions } from "sharp";
import { type SsimImage, ssim } from "../engines/image/ssim.ts";
import { photoPixels } from "../tests/container/image-fixtures.ts";

sharp.cache(false);
const corpus = fileURLToPath(new URL("../../shared/corpus/img/", import.meta.url));
const CORPUS_PHOTOS = [
  "photo_fallenleaf_canon70d.jpg",
  "photo_storm_canon400d.jpg",
  "photo_redpanda_nikon_10MP.jpg",
  "photo_elephants_progressive_17.9MP.jpg",
  "jpeg_artwork_squoosh.jpg",
  "jpeg_ultrahdr_gainmap.jpg",
  "webp_photo_lossy.webp",
  "png_gradients_rgb.png",
];
const PIXELS = 0.4e6;
const QUALITIES = [15, 25, 35, 50, 65, 80, 90, 95];
const TARGETS = {
  standard: [0.98, 0.99, 0.995, 0.998],
  full: [0.96, 0.97, 0.98, 0.99],
  chroma: [0.96, 0.97, 0.98, 0.99],
  rgb: [0.97, 0.98, 0.99, 0.995],
} as const;
type Measure = keyof typeof TARGETS;
const MEASURES = Object.keys(TARGETS) as Measure[];

const DEFAULT: JpegOptions = { mozjpeg: true, chromaSubsampling: "4:2:0" };
const VARIANTS: Record<string, JpegOptions> = {
  ...Object.fromEntries(
    [0, 1, 2, 4, 5, 6, 7, 8].map((table) => [`quant table ${table}`, { quantisationTable: table }]),
  ),
  "chroma 4:4:4": { chromaSubsampling: "4:4:4" },
  "no trellis": { trellisQuantisation: false },
  "no scan optimisation": { optimiseScans: false },
  sequential: { progressive: false, optimiseScans: false },
  "no deringing": { overshootDeringing: false },
};

interface Point {
  readonly quality: number;
  readonly bytes: number;
  readonly standard: number;
  readonly full: number;
  readonly chroma: number;
  readonly rgb: number;
}

async function rgb(input: Uint8Array | Buffer): Promise<SsimImage> {
  const { data, info } = await sharp(input)
    .toColourspace("srgb")
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data, channels: 3 };
}

/** A corpus image upright, flattened onto white, in sRGB, scaled to about 0.4 MP, as lossless PNG. */
async function corpusSource(file: string): Promise<Uint8Array> {
  const bytes = readFileSync(`${corpus}${file}`);
  const { width = 1, height = 1 } = await sharp(bytes).metadata();
  const scale = Math.min(1, Math.sqrt(PIXELS / (width * height)));
  const png = await sharp(bytes)
    .rotate()
    .flatten({ background: "#ffffff" })
    .toColourspace("srgb")
    .resize(Math.round(width * scale))
    .png({ compressionLevel: 1 })
    .toBuffer();
  return new Uint8Array(png);
}

/** The photo-like picture of the tests, with its colour kept at `saturation` (1 = as built). */
async function builtSource(width: number, height: number, saturation: number): Promise<Uint8Array> {
  const pixels = photoPixels(width, height);
  for (let i = 0; i < pixels.length; i += 3) {
    const grey = 0.299 * (pixels[i] ?? 0) + 0.587 * (pixels[i + 1] ?? 0) + 0.114 * (pixels[i + 2] ?? 0);
    for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(grey + saturation * ((pixels[i + c] ?? 0) - grey));
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

/** One colour channel of an RGB image, as a grey image. */
function channel(image: SsimImage, index: number): SsimImage {
  const out = new Uint8Array(image.width * image.height);
  for (let p = 0; p < out.length; p++) out[p] = image.data[p * 3 + index] ?? 0;
  return { width: image.width, height: image.height, data: out, channels: 1 };
}

/** Mean of the R, G and B SSIM scores at the standard scale. */
function rgbSsim(reference: SsimImage, decoded: SsimImage): number {
  return [0, 1, 2].reduce((sum, c) => sum + ssim(channel(reference, c), channel(decoded, c)), 0) / 3;
}

async function curve(source: Uint8Array, reference: SsimImage, settings: JpegOptions): Promise<Point[]> {
  const points: Point[] = [];
  for (const quality of QUALITIES) {
    const jpeg = await sharp(source)
      .jpeg({ ...DEFAULT, ...settings, quality })
      .toBuffer();
    const decoded = await rgb(jpeg);
    points.push({
      quality,
      bytes: jpeg.length,
      standard: ssim(reference, decoded),
      full: ssim(reference, decoded, { scale: "full" }),
      chroma: ssim(reference, decoded, { scale: "full", plane: "chroma" }),
      rgb: rgbSsim(reference, decoded),
    });
  }
  return points;
}

/** Bytes to reach `target` on `measure`, interpolated in log bytes; NaN outside the curve. */
function bytesAt(points: readonly Point[], measure: Measure, target: number): number {
  const sorted = [...points].sort((a, b) => a[measure] - b[measure]);
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    if (a && b && a[measure] <= target && target <= b[measure]) {
      const t = (target - a[measure]) / Math.max(1e-9, b[measure] - a[measure]);
      return Math.exp(Math.log(a.bytes) + t * (Math.log(b.bytes) - Math.log(a.bytes)));
    }
  }
  return Number.NaN;
}

/** Points between neighbouring qualities of a curve (linear in SSIM, log-linear in bytes). */
function* dense(points: readonly Point[]): Generator<Point> {
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (!a || !b) continue;
    for (let step = 0; step <= 10; step++) {
      const t = step / 10;
      const mix = (key: Measure) => a[key] + t * (b[key] - a[key]);
      yield {
        quality: a.quality + t * (b.quality - a.quality),
        bytes: Math.exp(Math.log(a.bytes) + t * (Math.log(b.bytes) - Math.log(a.bytes))),
        standard: mix("standard"),
        full: mix("full"),
        chroma: mix("chroma"),
        rgb: mix("rgb"),
      };
    }
  }
}

const geomean = (values: readonly number[]) =>
  values.length ? Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length) : Number.NaN;
const cell = (value: number, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

async function main(): Promise<void> {
  const sources: [string, Uint8Array][] = [
    ["photo-like, built in code", await builtSource(800, 500, 1)],
    ["photo-like, muted colour (30 %)", await builtSource(800, 500, 0.3)],
  ];
  if (existsSync(corpus)) {
    for (const file of CORPUS_PHOTOS) sources.push([`${file} (0.4 MP)`, await corpusSource(file)]);
  } else console.log(`No corpus at ${corpus}: images built in code only.`);

  const curves = new Map<string, Map<string, Point[]>>();
  for (const [name, source] of sources) {
    const reference = await rgb(source);
    const byVariant = new Map<string, Point[]>([["default", await curve(source, reference, {})]]);
    for (const [variant, settings] of Object.entries(VARIANTS))
      byVariant.set(variant, await curve(source, reference, settings));
    curves.set(name, byVariant);
    console.error(`measured ${name}`);
  }

  for (const measure of MEASURES) {
    console.log(
      `\n## Bytes at equal ${measure} SSIM, variant / default (geometric mean over images; < 1 = fewer bytes)\n`,
    );
    console.log(`| variant | ${TARGETS[measure].map((t) => `@${t}`).join(" | ")} |`);
    console.log(`|---|${TARGETS[measure].map(() => "---").join("|")}|`);
    for (const variant of Object.keys(VARIANTS)) {
      const cells = TARGETS[measure].map((target) => {
        const ratios = [...curves.values()]
          .map(
            (v) =>
              bytesAt(v.get(variant) ?? [], measure, target) /
              bytesAt(v.get("default") ?? [], measure, target),
          )
          .filter(Number.isFinite);
        return `${cell(geomean(ratios))} (${ratios.length})`;
      });
      console.log(`| ${variant} | ${cells.join(" | ")} |`);
    }
  }

  console.log(
    "\n## Per-image choice: fewest bytes of any variant reaching the default's standard and full-resolution SSIM, / default\n",
  );
  console.log(`| image | ${QUALITIES.map((q) => `q${q}`).join(" | ")} |`);
  console.log(`|---|${QUALITIES.map(() => "---").join("|")}|`);
  const gains = { luma: QUALITIES.map(() => [] as number[]), colour: QUALITIES.map(() => [] as number[]) };
  for (const [name, byVariant] of curves) {
    const row = QUALITIES.map((_, qi) => {
      const base = byVariant.get("default")?.[qi];
      if (!base) return "n/a";
      let luma = 1;
      let colour = 1;
      for (const [variant, points] of byVariant) {
        if (variant === "default") continue;
        for (const p of dense(points)) {
          if (p.standard < base.standard || p.full < base.full) continue;
          luma = Math.min(luma, p.bytes / base.bytes);
          if (p.chroma >= base.chroma) colour = Math.min(colour, p.bytes / base.bytes);
        }
      }
      gains.luma[qi]?.push(luma);
      gains.colour[qi]?.push(colour);
      return `${cell(luma)} / ${cell(colour)}`;
    });
    console.log(`| ${name} | ${row.join(" | ")} |`);
  }
  console.log(
    `| **geometric mean** | ${QUALITIES.map((_, qi) => `**${cell(geomean(gains.luma[qi] ?? []))} / ${cell(geomean(gains.colour[qi] ?? []))}**`).join(" | ")} |`,
  );
  console.log(
    "\nEach cell: luma SSIM only / chroma SSIM kept too. A gain that vanishes when chroma must be kept came from coarser colour.",
  );
}

await main();
