/**
 * How close a lossy image stays to its original, as the compress engine decides with it: SSIM
 * (engines/image/ssim.ts) on the image as seen over white and over black, whichever is worse, so
 * both colour and transparency changes count. Both images go through the same libvips pipeline
 * (flatten, grey, and on large images one shared resize), so only the compression differs.
 */
import sharp from "sharp";
import { ssim } from "./ssim.ts";

/** Above this many pixels both images are scaled down before comparing (SSIM averages down anyway). */
const FULL_SIZE_PIXELS = 4_000_000;
/** Shortest side of the scaled-down images: SSIM itself then averages 4×4 blocks of it. */
const COMPARED_SIDE = 1024;
/** SSIM's 11×11 window needs at least this side. */
const SSIM_MIN_SIDE = 11;

type Background = { r: number; g: number; b: number };
const WHITE: Background = { r: 255, g: 255, b: 255 };
const BLACK: Background = { r: 0, g: 0, b: 0 };

interface Grey {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** The first frame of `bytes`, turned upright, flattened onto `background`, as 8-bit grey. */
async function greyView(bytes: Uint8Array, background: Background, upright: boolean): Promise<Grey> {
  let pipeline = sharp(bytes, { limitInputPixels: false });
  if (upright) pipeline = pipeline.rotate();
  const { width = 0, height = 0 } = await sharp(bytes, { limitInputPixels: false }).metadata();
  pipeline = pipeline.flatten({ background }).greyscale();
  if (width * height > FULL_SIZE_PIXELS) {
    const scale = COMPARED_SIDE / Math.min(width, height);
    pipeline = pipeline.resize({
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      fit: "fill",
    });
  }
  const { data, info } = await pipeline.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
  };
}

function compare(a: Grey, b: Grey): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  if (Math.min(a.width, a.height) < SSIM_MIN_SIDE) {
    // Too small for SSIM's window: only an exact copy counts as faithful.
    return a.data.every((value, index) => value === b.data[index]) ? 1 : 0;
  }
  return ssim({ ...a, channels: 1 }, { ...b, channels: 1 });
}

/**
 * SSIM of `candidate` against `original` (1 = the same picture). `original` is turned upright by its
 * EXIF orientation first, as the compress engine does; `candidate` has none.
 */
export async function fidelity(
  original: Uint8Array,
  candidate: Uint8Array,
  hasAlpha: boolean,
): Promise<number> {
  const backgrounds = hasAlpha ? [WHITE, BLACK] : [WHITE];
  let worst = 1;
  for (const background of backgrounds) {
    const [a, b] = await Promise.all([
      greyView(original, background, true),
      greyView(candidate, background, false),
    ]);
    worst = Math.min(worst, compare(a, b));
  }
  return worst;
}
