/** The SSIM used by the image tests (tests/support/ssim.ts) against cases with known answers. */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type SsimImage, ssim } from "../support/ssim.ts";

const C1 = (0.01 * 255) ** 2;

function grey(width: number, height: number, value: (x: number, y: number) => number): SsimImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y);
  return { width, height, data, channels: 1 };
}

/** A textured test picture: rings and a diagonal ramp. */
const picture = (x: number, y: number) =>
  Math.round(127 + 60 * Math.sin(Math.hypot(x - 90, y - 70) / 6) + (x + y) / 8) & 255;
/** Deterministic noise in [-1, 1]. */
const noise = (x: number, y: number) =>
  (Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 0) / 2 ** 31 - 1;

describe("ssim", () => {
  it("is 1 for identical images and symmetric otherwise", () => {
    const a = grey(200, 150, picture);
    const b = grey(200, 150, (x, y) => picture(x, y) + Math.round(10 * noise(x, y)));
    expect(ssim(a, a)).toBe(1);
    expect(ssim(a, b)).toBeCloseTo(ssim(b, a), 12);
  });

  it("matches the closed form for flat images: only the luminance term remains", () => {
    const expected = (2 * 100 * 150 + C1) / (100 ** 2 + 150 ** 2 + C1);
    expect(
      ssim(
        grey(40, 40, () => 100),
        grey(40, 40, () => 150),
      ),
    ).toBeCloseTo(expected, 10);
  });

  it("falls as noise grows", () => {
    const a = grey(256, 256, picture);
    const scores = [2, 8, 24, 64].map((amplitude) =>
      ssim(
        a,
        grey(256, 256, (x, y) =>
          Math.min(255, Math.max(0, picture(x, y) + Math.round(amplitude * noise(x, y)))),
        ),
      ),
    );
    expect(scores).toEqual([...scores].sort((p, q) => q - p));
    expect(scores[0]).toBeGreaterThan(0.97);
    expect(scores[3]).toBeLessThan(0.6);
  });

  it("reads RGB and RGBA through luma, so a grey copy of the same luma scores 1", () => {
    const rgb = new Uint8Array(64 * 64 * 3).map((_, i) => (i % 3 === 0 ? 200 : i % 3 === 1 ? 100 : 50));
    const y = Math.round(0.299 * 200 + 0.587 * 100 + 0.114 * 50);
    const rgba = new Uint8Array(64 * 64 * 4).map((_, i) => [200, 100, 50, 0][i % 4] ?? 0);
    expect(
      ssim(
        { width: 64, height: 64, data: rgb, channels: 3 },
        grey(64, 64, () => y),
      ),
    ).toBeCloseTo(1, 4);
    expect(
      ssim(
        { width: 64, height: 64, data: rgba, channels: 4 },
        { width: 64, height: 64, data: rgb, channels: 3 },
      ),
    ).toBe(1);
  });

  it("ranks JPEG qualities in order", async () => {
    const source = grey(320, 240, picture);
    const scores = [];
    for (const quality of [20, 50, 90]) {
      const jpeg = await sharp(source.data as Uint8Array, { raw: { width: 320, height: 240, channels: 1 } })
        .jpeg({ quality })
        .toBuffer();
      const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      const channels = info.channels as 1 | 3;
      scores.push(ssim(source, { width: info.width, height: info.height, data, channels }));
    }
    expect(scores).toEqual([...scores].sort((p, q) => p - q));
    expect(new Set(scores).size).toBe(3);
  });

  it("at full resolution sees pixel noise that viewing-scale averaging hides", () => {
    const a = grey(768, 768, picture);
    const b = grey(768, 768, (x, y) =>
      Math.min(255, Math.max(0, picture(x, y) + Math.round(12 * noise(x, y)))),
    );
    const viewing = ssim(a, b);
    const full = ssim(a, b, { scale: "full" });
    expect(viewing).toBeGreaterThan(0.97);
    expect(full).toBeLessThan(viewing - 0.1);
    // Below 384 px on the short side the standard score is already at full resolution.
    const small = [grey(300, 200, picture), grey(300, 200, (x, y) => (picture(x, y) + 9) & 255)] as const;
    expect(ssim(...small, { scale: "full" })).toBe(ssim(...small));
  });

  it("on chroma sees a colour change that keeps luma, and scores grey images 1", () => {
    const size = 96;
    const rgb = (shift: number) => {
      const data = new Uint8Array(size * size * 3);
      for (let p = 0; p < size * size; p++) {
        const [x, y] = [p % size, Math.floor(p / size)];
        const wave = 40 * Math.sin((x + y) / 5) * shift;
        // Red and blue traded against each other at equal luma: 0.299·Δr + 0.114·Δb = 0.
        data.set([128 + wave, 128, 128 - (0.299 / 0.114) * wave].map(Math.round), p * 3);
      }
      return { width: size, height: size, data, channels: 3 as const };
    };
    const [flat, coloured] = [rgb(0), rgb(1)];
    expect(ssim(flat, coloured)).toBeGreaterThan(0.999);
    expect(ssim(flat, coloured, { plane: "chroma" })).toBeLessThan(0.5);
    expect(ssim(coloured, coloured, { plane: "chroma" })).toBe(1);
    expect(
      ssim(
        grey(64, 64, picture),
        grey(64, 64, (x, y) => picture(y, x)),
        { plane: "chroma" },
      ),
    ).toBe(1);
  });

  it("refuses images of different sizes or too small for its window", () => {
    expect(() => ssim(grey(20, 20, picture), grey(20, 21, picture))).toThrow(/sizes differ/);
    expect(() => ssim(grey(10, 10, picture), grey(10, 10, picture))).toThrow(/too small/);
  });
});
