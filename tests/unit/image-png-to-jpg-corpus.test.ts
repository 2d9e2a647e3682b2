/**
 * The edge png-to-jpg steps (convert-png-to-jpg.ts) on real PNGs, in Node with the same WASM codecs
 * (codecs.node.ts): SSIM against the source flattened onto white by libvips, and size against
 * sharp's MozJPEG at the same quality. The edge refuses images over its pixel budget before
 * decoding; here the limit is lifted to measure the encoder on every file.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import sharp, { type Sharp } from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { jpegQuality, type QualityPreset } from "../../contract/index.ts";
import { loadNodeCodecs } from "../../engines/image/codecs.node.ts";
import { convertPngToJpg } from "../../engines/image/convert-png-to-jpg.ts";
import { convertibleAtEdge, readImageInfo } from "../../engines/image/image-info.ts";
import { type SsimImage, ssim } from "../support/ssim.ts";

const CORPUS = resolve(import.meta.dirname, "../../../shared/corpus/img");
/** The corpus PNGs the edge converts (one with a Display P3 profile goes to the container). */
const files = existsSync(CORPUS)
  ? readdirSync(CORPUS).filter(
      (f) => /^png.*\.png$/.test(f) && convertibleAtEdge(readImageInfo(readFileSync(join(CORPUS, f)))),
    )
  : [];
const PRESETS: readonly QualityPreset[] = ["low", "medium", "high"];
/**
 * Our JPEG may exceed sharp's by this factor, plus a fixed 200 bytes: below q≈70 the squoosh
 * MozJPEG wrapper writes 16-bit quantisation tables (sharp clamps them to 8 bits) and a JFIF
 * segment, ~144 bytes in all. The ICC profile we keep and sharp drops is not counted.
 */
const SIZE_TOLERANCE = { factor: 1.03, bytes: 200 };
/** Images above this many pixels are measured at the medium preset only, to keep the run short. */
const ALL_PRESETS_UP_TO = 4_000_000;
const results: string[] = [];

async function pixels(image: Sharp): Promise<SsimImage> {
  const { data, info } = await image.toColourspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data, channels: info.channels as 3 | 4 };
}

/** Bytes of embedded ICC profile data (APP2 "ICC_PROFILE" payloads). */
function iccBytes(jpeg: Uint8Array): number {
  let total = 0;
  for (let i = 2; i + 4 < jpeg.length && jpeg[i] === 0xff && jpeg[i + 1] !== 0xda; ) {
    const length = ((jpeg[i + 2] ?? 0) << 8) | (jpeg[i + 3] ?? 0);
    if (jpeg[i + 1] === 0xe2) total += length;
    i += 2 + length;
  }
  return total;
}

describe.skipIf(files.length === 0)("png-to-jpg on the corpus (Node)", () => {
  // Without the corpus one case stands for the files, so the summary counts it as skipped.
  it.each(files.length > 0 ? files : ["(../shared/corpus/img absent)"])(
    "%s: SSIM as good as sharp's MozJPEG, size within 3 % + 200 B",
    async (file) => {
      const png = new Uint8Array(readFileSync(join(CORPUS, file)));
      const reference = await pixels(sharp(png).flatten({ background: "#ffffff" }));
      const presets = reference.width * reference.height <= ALL_PRESETS_UP_TO ? PRESETS : ["medium" as const];
      for (const preset of presets) {
        const quality = jpegQuality(preset);
        const started = performance.now();
        const ours = await convertPngToJpg(
          png,
          { quality, maxPixels: Number.POSITIVE_INFINITY },
          loadNodeCodecs,
          () => undefined,
        );
        const ms = performance.now() - started;
        const theirs = await sharp(png)
          .flatten({ background: "#ffffff" })
          .jpeg({ quality, mozjpeg: true })
          .toBuffer();
        expect(ours.facts).toMatchObject({ width: reference.width, height: reference.height });
        expect(readImageInfo(ours.bytes)).toMatchObject({
          kind: "jpeg",
          width: reference.width,
          height: reference.height,
        });
        const ourScore = ssim(reference, await pixels(sharp(ours.bytes)));
        const theirScore = ssim(reference, await pixels(sharp(theirs)));
        const comparable = ours.bytes.length - iccBytes(ours.bytes);
        const ratio = comparable / theirs.length;
        results.push(
          `${file} ${preset}: ${ours.bytes.length} B (sharp ${theirs.length} B, ratio ${ratio.toFixed(3)}), ` +
            `SSIM ${ourScore.toFixed(4)} (sharp ${theirScore.toFixed(4)}), ` +
            `${Math.round(ms / ((reference.width * reference.height) / 1e6))} ms/MP`,
        );
        expect(ourScore).toBeGreaterThanOrEqual(theirScore - 0.002);
        expect(ourScore).toBeGreaterThanOrEqual(preset === "low" ? 0.95 : 0.97);
        expect(comparable).toBeLessThanOrEqual(theirs.length * SIZE_TOLERANCE.factor + SIZE_TOLERANCE.bytes);
      }
    },
    180_000,
  );

  it("converts an interlaced (Adam7) PNG like libvips decodes it", async () => {
    const raw = Buffer.alloc(333 * 211 * 4).map((_, i) => (i % 4 === 3 ? 128 + (i % 127) : (i * 7) % 256));
    const png = new Uint8Array(
      await sharp(raw, { raw: { width: 333, height: 211, channels: 4 } })
        .png({ progressive: true })
        .toBuffer(),
    );
    const ours = await convertPngToJpg(png, { quality: 95, maxPixels: 1e6 }, loadNodeCodecs, () => undefined);
    const reference = await pixels(sharp(png).flatten({ background: "#ffffff" }));
    expect(ssim(reference, await pixels(sharp(ours.bytes)))).toBeGreaterThan(0.9);
    const sharpJpeg = await sharp(png)
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 95, mozjpeg: true })
      .toBuffer();
    expect(ssim(reference, await pixels(sharp(ours.bytes)))).toBeCloseTo(
      ssim(reference, await pixels(sharp(sharpJpeg))),
      2,
    );
  });

  afterAll(() => {
    if (results.length > 0) console.info(`png-to-jpg corpus results:\n${results.join("\n")}`);
  });
});
