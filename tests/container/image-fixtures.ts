/**
 * Images built in code for the image engine tests: a photo-like picture (gradients, texture at two
 * scales, grain) and the forms every path must handle — grey, grey+alpha, palette, 16-bit, CMYK
 * with a profile, EXIF-rotated, animated WebP and GIF. Encoded by sharp (libvips).
 */
import sharp, { type Sharp } from "sharp";

/** Deterministic value noise in [0, 1): smooth between lattice points `cell` pixels apart. */
function valueNoise(x: number, y: number, cell: number, seed: number): number {
  const hash = (i: number, j: number) => {
    let h = Math.imul(i, 374761393) + Math.imul(j, 668265263) + Math.imul(seed, 2246822519);
    h = Math.imul(h ^ (h >>> 13), 1274126177);
    return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
  };
  const [gx, gy] = [x / cell, y / cell];
  const [x0, y0] = [Math.floor(gx), Math.floor(gy)];
  const [sx, sy] = [(gx - x0) ** 2 * (3 - 2 * (gx - x0)), (gy - y0) ** 2 * (3 - 2 * (gy - y0))];
  const [a, b, c, d] = [hash(x0, y0), hash(x0 + 1, y0), hash(x0, y0 + 1), hash(x0 + 1, y0 + 1)];
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** Photo-like RGB pixels, `width`×`height`×3. */
export function photoPixels(width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const fine = valueNoise(x, y, 6, 1) - 0.5;
      const coarse = valueNoise(x, y, 24, 2) - 0.5;
      const grain = (valueNoise(x, y, 1, 3) - 0.5) * 4;
      const rgb = [
        60 + (x * 160) / width + 90 * coarse + 50 * fine,
        70 + (y * 150) / height + 60 * fine,
        140 + 80 * coarse - 40 * fine,
      ];
      out.set(
        rgb.map((v) => Math.max(0, Math.min(255, Math.round(v + grain)))),
        (y * width + x) * 3,
      );
    }
  }
  return out;
}

export const photo = (width: number, height: number) =>
  sharp(photoPixels(width, height), { raw: { width, height, channels: 3 } });

const bytes = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);

/** Photo-like RGB with a transparent-to-opaque ramp from left to right. */
function withAlphaRamp(width: number, height: number) {
  const rgb = photoPixels(width, height);
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    rgba.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    rgba[p * 4 + 3] = Math.round((255 * (p % width)) / (width - 1));
  }
  return sharp(rgba, { raw: { width, height, channels: 4 } });
}

export const imageFixtures = {
  photoPng: async (w = 384, h = 256) => bytes(await photo(w, h).png().toBuffer()),
  photoJpeg: async (w = 384, h = 256) => bytes(await photo(w, h).jpeg({ quality: 92 }).toBuffer()),
  photoWebp: async (w = 384, h = 256) => bytes(await photo(w, h).webp({ quality: 90 }).toBuffer()),
  alphaPng: async (w = 256, h = 160) => bytes(await withAlphaRamp(w, h).png().toBuffer()),
  alphaWebp: async (w = 256, h = 160) => bytes(await withAlphaRamp(w, h).webp({ quality: 90 }).toBuffer()),
  greyPng: async (w = 256, h = 160) => bytes(await photo(w, h).toColourspace("b-w").png().toBuffer()),
  greyAlphaPng: async (w = 256, h = 160) =>
    bytes(await withAlphaRamp(w, h).toColourspace("b-w").png().toBuffer()),
  greyJpeg: async (w = 256, h = 160) =>
    bytes(await photo(w, h).toColourspace("b-w").jpeg({ quality: 92 }).toBuffer()),
  palettePng: async (w = 256, h = 160) =>
    bytes(await photo(w, h).png({ palette: true, colours: 64 }).toBuffer()),
  png16: async (w = 256, h = 160) => bytes(await photo(w, h).toColourspace("rgb16").png().toBuffer()),
  /** EXIF orientation 6 (a quarter turn clockwise when shown). */
  rotatedJpeg: async (w = 240, h = 160) =>
    bytes(await photo(w, h).jpeg({ quality: 92 }).withMetadata({ orientation: 6 }).toBuffer()),
  cmykJpeg: async (w = 240, h = 160) =>
    bytes(await photo(w, h).withIccProfile("cmyk").jpeg({ quality: 95 }).toBuffer()),
  p3Png: async (w = 240, h = 160) => bytes(await photo(w, h).withIccProfile("p3").png().toBuffer()),
  /** Three frames: red, green, blue. */
  animatedWebp: async () => bytes(await (await animation()).webp({ loop: 0 }).toBuffer()),
  animatedGif: async () => bytes(await (await animation()).gif().toBuffer()),
};

export const FRAME_COLOURS = ["#ff0000", "#00ff00", "#0000ff"] as const;

async function animation(): Promise<Sharp> {
  const frames = await Promise.all(
    FRAME_COLOURS.map((background) =>
      sharp({ create: { width: 40, height: 30, channels: 4, background } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } });
}
