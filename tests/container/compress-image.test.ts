import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError, type FileKind } from "../../contract/index.ts";
import { compressImage, paletteSsimFloor } from "../../engines/image/compress-image.ts";
import { ssim } from "../support/ssim.ts";

type Quality = "low" | "medium" | "high" | number;

function compress(kind: FileKind, bytes: Uint8Array, quality: Quality = "medium", name = `in.${kind}`) {
  return compressImage([{ name, kind, bytes }], { quality }, () => {});
}

/** Smooth colour gradients with fine noise: what a camera photo looks like to an encoder. */
function photoPixels(width: number, height: number, channels: 3 | 4): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed % 5) - 2;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      const wave = Math.sin(x / 23) * 40 + Math.cos(y / 31) * 40;
      pixels[at] = Math.max(0, Math.min(255, 90 + (x * 120) / width + wave + noise()));
      pixels[at + 1] = Math.max(0, Math.min(255, 60 + (y * 150) / height - wave / 2 + noise()));
      pixels[at + 2] = Math.max(0, Math.min(255, 160 - (x * 80) / width + wave / 3 + noise()));
      if (channels === 4) {
        // A soft-edged disc: opaque inside, transparent outside.
        const distance = Math.hypot(x - width / 2, y - height / 2) / (Math.min(width, height) / 2);
        pixels[at + 3] = Math.max(0, Math.min(255, Math.round((1.1 - distance) * 255 * 4)));
      }
    }
  }
  return pixels;
}

/** A GIF of `frames` one-pixel frames on a `width`×`height` logical screen (two colours). */
function tinyFramesGif(width: number, height: number, frames: number): Uint8Array {
  const le = (value: number) => [value & 0xff, value >> 8];
  const bytes = [...Buffer.from("GIF89a"), ...le(width), ...le(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  for (let i = 0; i < frames; i++) {
    bytes.push(0x21, 0xf9, 4, 0, 1, 0, 0, 0); // graphic control: 10 ms
    bytes.push(0x2c, ...le(i % width), 0, 0, 1, 0, 1, 0, 0); // a 1×1 frame
    bytes.push(2, 2, 0x44, 0x01, 0); // LZW, 3-bit codes: clear, colour 0, end
  }
  bytes.push(0x3b);
  return new Uint8Array(bytes);
}

async function photoJpeg(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(photoPixels(width, height, 3), { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 98, chromaSubsampling: "4:4:4" })
      .withExif({ IFD0: { Artist: "Someone", Copyright: "Someone 2026" } })
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  );
}

/** Flat panels, borders and rows of "text": a screenshot's few colours and hard edges. */
async function screenshotPng(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3, 248);
  const fill = (x0: number, y0: number, w: number, h: number, rgb: readonly number[]) => {
    for (let y = y0; y < Math.min(height, y0 + h); y++)
      for (let x = x0; x < Math.min(width, x0 + w); x++) pixels.set(rgb, (y * width + x) * 3);
  };
  fill(0, 0, width, 48, [37, 99, 235]);
  fill(0, 48, 180, height - 48, [241, 245, 249]);
  for (let row = 0; row < 20; row++) {
    for (let word = 0; word < 8; word++) {
      const shade = 40 + ((row * 8 + word) % 5) * 30;
      fill(200 + word * 70, 70 + row * 24, 40 + ((row + word) % 3) * 10, 10, [shade, shade, shade + 20]);
    }
  }
  for (let x = 0; x < width; x++) fill(x, height - 60, 1, 60, [x % 256, 120, 255 - (x % 256)]);
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

async function alphaImage(kind: "png" | "webp", width: number, height: number): Promise<Uint8Array> {
  const image = sharp(photoPixels(width, height, 4), { raw: { width, height, channels: 4 } });
  const encoded = kind === "png" ? image.png() : image.webp({ lossless: true });
  return new Uint8Array(await encoded.toBuffer());
}

/** RGB of `bytes` flattened onto `background`, turned upright. */
async function rgb(bytes: Uint8Array, background = "#ffffff") {
  const { data, info } = await sharp(bytes)
    .rotate()
    .flatten({ background })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data, channels: 3 as const };
}

async function similarity(a: Uint8Array, b: Uint8Array, background?: string): Promise<number> {
  return ssim(await rgb(a, background), await rgb(b, background));
}

describe("compressImage", () => {
  it("JPEG: MozJPEG at the quality, upright, metadata gone, SSIM ≥ 0.95 at medium, smaller", async () => {
    const input = await photoJpeg(480, 320);
    const output = await compress("jpeg", input, "medium", "holiday.jpg");
    const meta = await sharp(output.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 320, 480]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation ?? 1).toBe(1);
    expect(output.kind).toBe("jpeg");
    expect(output.name).toBe("holiday-compressed.jpg");
    expect(output.bytes.length).toBeLessThan(input.length * 0.6);
    expect(await similarity(input, output.bytes)).toBeGreaterThanOrEqual(0.95);
    expect(output.facts).toMatchObject({
      width: 320,
      height: 480,
      method: "mozjpeg",
      alreadyOptimized: false,
    });
  });

  it("JPEG: lower quality gives fewer bytes (low < medium < high)", async () => {
    const input = await photoJpeg(400, 300);
    const sizes = [];
    for (const quality of ["low", "medium", "high"] as const)
      sizes.push((await compress("jpeg", input, quality)).bytes.length);
    expect(sizes[0]).toBeLessThan(sizes[1] ?? 0);
    expect(sizes[1]).toBeLessThan(sizes[2] ?? 0);
  });

  it("PNG screenshot: palette quantisation, same size, SSIM above the floor, far smaller", async () => {
    const input = await screenshotPng(800, 600);
    const output = await compress("png", input);
    const meta = await sharp(output.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 800, 600]);
    expect(output.facts.method).toBe("palette");
    expect(output.bytes.length).toBeLessThan(input.length);
    expect(await similarity(input, output.bytes)).toBeGreaterThanOrEqual(0.95);
    expect(output.facts.ssim).toBeGreaterThanOrEqual(paletteSsimFloor(85));
  });

  it("PNG of three colours: packed into a 2-bit palette, pixel for pixel", async () => {
    const width = 300;
    const height = 200;
    const colours = [
      [206, 17, 38],
      [255, 255, 255],
      [0, 40, 104],
    ];
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        pixels.set(colours[Math.floor((x * 3) / width)] ?? [], (y * width + x) * 3);
    const input = new Uint8Array(
      await sharp(pixels, { raw: { width, height, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const output = await compress("png", input);
    expect(output.facts.method).toBe("palette");
    expect(output.bytes[24]).toBe(2); // IHDR bit depth
    expect(output.bytes[25]).toBe(3); // IHDR colour type: palette
    expect((await sharp(output.bytes).removeAlpha().raw().toBuffer()).equals(pixels)).toBe(true);
  });

  it("PNG with alpha: transparency kept (edges and holes), SSIM ≥ 0.95 over white and black", async () => {
    const input = await alphaImage("png", 300, 200);
    const output = await compress("png", input);
    const { data, info } = await sharp(output.bytes)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 200]);
    expect((await sharp(output.bytes).metadata()).hasAlpha).toBe(true);
    expect(data[3]).toBe(0); // corner: fully transparent
    expect(data[(100 * 300 + 150) * 4 + 3]).toBe(255); // centre: opaque
    expect(output.bytes.length).toBeLessThan(input.length);
    for (const background of ["#ffffff", "#000000"])
      expect(await similarity(input, output.bytes, background)).toBeGreaterThanOrEqual(0.95);
  });

  it("PNG gradient where a palette would band or dither visibly: lossless instead, pixel for pixel", async () => {
    const width = 400;
    const height = 300;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 3;
        pixels.set([(x * 255) / width, (y * 255) / height, ((x + y) * 255) / (width + height)], at);
      }
    }
    const input = new Uint8Array(
      await sharp(pixels, { raw: { width, height, channels: 3 } })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
    const output = await compress("png", input);
    expect(output.facts.method).toBe("lossless");
    expect(output.bytes.length).toBeLessThan(input.length);
    const decoded = await sharp(output.bytes).raw().toBuffer();
    expect(decoded.equals(pixels)).toBe(true);
  });

  it("WebP with alpha: lossy WebP keeping transparency, smaller, SSIM ≥ 0.95", async () => {
    const input = await alphaImage("webp", 320, 240);
    const output = await compress("webp", input);
    const meta = await sharp(output.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(["webp", 320, 240, true]);
    const { data } = await sharp(output.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBeLessThan(8);
    expect(data[(120 * 320 + 160) * 4 + 3]).toBeGreaterThan(247);
    expect(output.bytes.length).toBeLessThan(input.length);
    for (const background of ["#ffffff", "#000000"])
      expect(await similarity(input, output.bytes, background)).toBeGreaterThanOrEqual(0.95);
  });

  it("GIF: every frame kept, same size, never larger", async () => {
    const frames = await Promise.all(
      [0, 1, 2].map((i) =>
        sharp(photoPixels(120, 80, 3), { raw: { width: 120, height: 80, channels: 3 } })
          .modulate({ hue: i * 40 })
          .png()
          .toBuffer(),
      ),
    );
    const input = new Uint8Array(
      await sharp(frames, { join: { animated: true } })
        .gif({ effort: 1 })
        .toBuffer(),
    );
    const output = await compress("gif", input, "low");
    const meta = await sharp(output.bytes, { animated: true }).metadata();
    expect([meta.format, meta.pages, meta.width, meta.pageHeight]).toEqual(["gif", 3, 120, 80]);
    expect(output.bytes.length).toBeLessThanOrEqual(input.length);
    expect(output.facts.frames).toBe(3);
  });

  it("refuses a GIF whose frames together exceed the pixel limit as IMAGE_TOO_LARGE, not damaged", async () => {
    // 1000 frames of one pixel on a 1000×1000 screen: 23 KB that decodes to 1000 full frames.
    const bytes = tinyFramesGif(1000, 1000, 1000);
    expect((await sharp(bytes).metadata()).pages).toBe(1000);
    const refused = await compress("gif", bytes).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "IMAGE_TOO_LARGE",
      context: { width: 1000, height: 1000, frames: 1000 },
    });
  });

  it("returns an already optimised file unchanged and says so", async () => {
    // A file this engine made already: compressing it again cannot make it smaller.
    const icon = new Uint8Array(
      await sharp({ create: { width: 24, height: 24, channels: 3, background: "#3366cc" } })
        .png()
        .toBuffer(),
    );
    const once = await compress("png", icon, "high", "icon.png");
    expect(once.bytes.length).toBeLessThan(icon.length);
    const output = await compress("png", once.bytes, "high", "icon.png");
    expect(output.bytes).toEqual(once.bytes);
    expect(output.name).toBe("icon.png");
    expect(output.facts.alreadyOptimized).toBe(true);

    // A low-quality JPEG asked for quality 95 would grow: the original comes back.
    const rough = new Uint8Array(
      await sharp(await photoJpeg(200, 120))
        .jpeg({ quality: 30 })
        .toBuffer(),
    );
    const again = await compress("jpeg", rough, "high");
    expect(again.bytes.length).toBe(rough.length);
    expect(again.facts.alreadyOptimized).toBe(true);
  });

  it("refuses damaged and mislabelled images with the right code", async () => {
    const input = await photoJpeg(64, 64);
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => "none",
        (error: unknown) => (error instanceof AppError ? error.code : "other"),
      );
    expect(await codeOf(compress("jpeg", input.subarray(0, 200)))).toBe("IMAGE_DAMAGED");
    expect(await codeOf(compress("png", input))).toBe("IMAGE_DAMAGED");
  });
});
