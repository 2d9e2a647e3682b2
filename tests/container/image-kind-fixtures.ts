/**
 * HEIC, AVIF, TIFF and BMP fixtures built in code: AVIF and TIFF by sharp (libvips), 16-bit TIFF by
 * tiff-write.ts, BMP byte by byte here (every header version and pixel layout the decoder reads),
 * HEIC by `heif-enc` (libheif with x265, Debian package libheif-examples: sharp's prebuilt libheif
 * has no HEVC encoder). `heifEnc()` installs the package when it is missing and the tests run as
 * root; without it the HEIC tests skip.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { writeTiff } from "../../engines/image/tiff-write.ts";
import { photo, photoPixels } from "./image-fixtures.ts";

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);

/** Solid colours of the pages of a multi-page TIFF, in order. */
export const PAGE_COLOURS = ["#ff0000", "#00ff00", "#0000ff", "#ffff00"] as const;

export const kindFixtures = {
  avif: async (w = 240, h = 160) => bytesOf(await photo(w, h).avif({ quality: 70 }).toBuffer()),
  /** Written with a quarter turn (`irot`), shown `h`×`w`. */
  rotatedAvif: async (w = 240, h = 160) =>
    bytesOf(await photo(w, h).withMetadata({ orientation: 6 }).avif({ quality: 70 }).toBuffer()),
  tiff: async (w = 240, h = 160) => bytesOf(await photo(w, h).tiff({ compression: "lzw" }).toBuffer()),
  /** EXIF-style Orientation tag 6 in IFD0: shown `h`×`w`. */
  rotatedTiff: async (w = 240, h = 160) =>
    bytesOf(await photo(w, h).withMetadata({ orientation: 6 }).tiff().toBuffer()),
  /** 16 bits per sample, RGB: each 8-bit photo sample scaled to 16 bits (v × 257). */
  tiff16: (w = 240, h = 160) => {
    const eight = photoPixels(w, h);
    const data = new Uint8Array(eight.length * 2);
    const view = new DataView(data.buffer);
    eight.forEach((value, i) => {
      view.setUint16(i * 2, value * 257, true);
    });
    return writeTiff({ width: w, height: h, channels: 3, data, bitsPerSample: 16 });
  },
  /** One page per colour of PAGE_COLOURS, each `w`×`h`. */
  multiPageTiff: async (w = 120, h = 90) => {
    const pages = await Promise.all(
      PAGE_COLOURS.map((background) =>
        sharp({ create: { width: w, height: h, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    return bytesOf(
      await sharp(pages, { join: { animated: true } })
        .tiff()
        .toBuffer(),
    );
  },
};

/**
 * A multi-page TIFF whose pages have sizes of their own (uncompressed RGB strips, little-endian),
 * as scanners write a document of A4 and Letter pages, or portrait and landscape: libvips writes
 * only pages of one size. `paint` gives a page's pixel's RGB.
 */
export function multiSizeTiff(
  pages: readonly {
    width: number;
    height: number;
    paint: (x: number, y: number) => readonly number[];
    /** The page's Orientation tag (274), when it has one. */
    orientation?: number;
  }[],
): Uint8Array {
  const le16 = (v: number) => [v & 255, (v >> 8) & 255];
  const le32 = (v: number) => [v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255];
  const parts: Uint8Array[] = [Uint8Array.from([0x49, 0x49, ...le16(42), ...le32(8)])];
  let at = 8;
  pages.forEach(({ width, height, paint, orientation }, index) => {
    const entries = orientation === undefined ? 9 : 10;
    const bitsAt = at + 2 + entries * 12 + 4;
    const dataAt = bitsAt + 6;
    const pixels = new Uint8Array(width * height * 3 + ((width * height * 3) % 2));
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) pixels.set(paint(x, y).slice(0, 3), (y * width + x) * 3);
    const next = index === pages.length - 1 ? 0 : dataAt + pixels.length;
    const entry = (tag: number, type: number, count: number, value: number[]) => [
      ...le16(tag),
      ...le16(type),
      ...le32(count),
      ...value,
    ];
    const short = (v: number) => [...le16(v), 0, 0];
    parts.push(
      Uint8Array.from([
        ...le16(entries),
        ...entry(256, 4, 1, le32(width)),
        ...entry(257, 4, 1, le32(height)),
        ...entry(258, 3, 3, le32(bitsAt)),
        ...entry(259, 3, 1, short(1)),
        ...entry(262, 3, 1, short(2)),
        ...entry(273, 4, 1, le32(dataAt)),
        ...(orientation === undefined ? [] : entry(274, 3, 1, short(orientation))),
        ...entry(277, 3, 1, short(3)),
        ...entry(278, 4, 1, le32(height)),
        ...entry(279, 4, 1, le32(width * height * 3)),
        ...le32(next),
        ...le16(8),
        ...le16(8),
        ...le16(8),
      ]),
      pixels,
    );
    at = dataAt + pixels.length;
  });
  const out = new Uint8Array(at);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** A BMP's layout: bits per pixel, DIB header size, row order and compression. */
export interface BmpSpec {
  readonly bitCount: 1 | 4 | 8 | 16 | 24 | 32;
  readonly header: 12 | 40 | 108 | 124;
  readonly topDown?: boolean;
  /** 16-bit 5-6-5 or 32-bit BGRA masks (BI_BITFIELDS). */
  readonly bitfields?: boolean;
}

/** Colours of the palette images: index i is PALETTE[i % PALETTE.length]. */
const PALETTE: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [255, 255, 255],
  [220, 30, 40],
  [20, 160, 60],
  [30, 60, 200],
  [250, 200, 0],
  [120, 40, 160],
  [0, 180, 190],
];

/**
 * A BMP of `w`×`h` and its expected RGBA pixels (top row first). Palette images use a diagonal
 * pattern of palette indexes; direct-colour ones a photo, with alpha falling from left to right
 * when 32-bit with bit fields.
 */
export function bmpFixture(spec: BmpSpec, w = 37, h = 23): { bytes: Uint8Array; rgba: Uint8Array } {
  const { bitCount, header } = spec;
  const colours = bitCount <= 8 ? Math.min(1 << bitCount, PALETTE.length) : 0;
  const rgba = new Uint8Array(w * h * 4);
  const indexes = new Uint8Array(w * h);
  const rgb = photoPixels(w, h);
  for (let p = 0; p < w * h; p++) {
    const [x, y] = [p % w, Math.floor(p / w)];
    if (colours > 0) {
      const index = (x + 2 * y) % colours;
      indexes[p] = index;
      rgba.set([...(PALETTE[index] ?? [0, 0, 0]), 255], p * 4);
    } else {
      let [r, g, b] = [rgb[p * 3] ?? 0, rgb[p * 3 + 1] ?? 0, rgb[p * 3 + 2] ?? 0];
      if (bitCount === 16) [r, g, b] = [r & 0xf8, g & 0xfc, b & 0xf8];
      const a = bitCount === 32 && spec.bitfields ? 255 - Math.round((x * 200) / (w - 1)) : 255;
      rgba.set([r, g, b, a], p * 4);
    }
  }
  const stride = Math.ceil((w * bitCount) / 32) * 4;
  const masks = spec.bitfields && header === 40 ? 12 : 0;
  const paletteBytes = colours * (header === 12 ? 3 : 4);
  const dataOffset = 14 + header + masks + paletteBytes;
  const out = new Uint8Array(dataOffset + stride * h);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, dataOffset, true);
  view.setUint32(14, header, true);
  if (header === 12) {
    view.setUint16(18, w, true);
    view.setInt16(20, spec.topDown ? -h : h, true);
    view.setUint16(22, 1, true);
    view.setUint16(24, bitCount, true);
  } else {
    view.setInt32(18, w, true);
    view.setInt32(22, spec.topDown ? -h : h, true);
    view.setUint16(26, 1, true);
    view.setUint16(28, bitCount, true);
    view.setUint32(30, spec.bitfields ? 3 : 0, true);
    view.setUint32(46, colours, true);
    if (spec.bitfields) {
      const [r, g, b, a] =
        bitCount === 16 ? [0xf800, 0x07e0, 0x001f, 0] : [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
      [r, g, b].forEach((mask, i) => {
        view.setUint32(54 + i * 4, mask, true);
      });
      if (header >= 108) view.setUint32(66, a, true);
    }
    // V4/V5: colour space "sRGB".
    if (header >= 108) view.setUint32(70, 0x73524742, true);
  }
  PALETTE.slice(0, colours).forEach(([r, g, b], i) => {
    out.set([b, g, r], 14 + header + masks + i * (header === 12 ? 3 : 4));
  });
  for (let y = 0; y < h; y++) {
    const row = dataOffset + (spec.topDown ? y : h - 1 - y) * stride;
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const [r, g, b, a] = [
        rgba[p * 4] ?? 0,
        rgba[p * 4 + 1] ?? 0,
        rgba[p * 4 + 2] ?? 0,
        rgba[p * 4 + 3] ?? 0,
      ];
      if (bitCount <= 8) {
        const bit = x * bitCount;
        const at = row + (bit >>> 3);
        out[at] = (out[at] ?? 0) | ((indexes[p] ?? 0) << (8 - bitCount - (bit & 7)));
      } else if (bitCount === 16) {
        view.setUint16(row + x * 2, ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3), true);
      } else if (bitCount === 24) {
        out.set([b, g, r], row + x * 3);
      } else {
        out.set([b, g, r, spec.bitfields ? a : 0], row + x * 4);
      }
    }
  }
  if (bitCount === 16 && !spec.bitfields) throw new Error("16-bit fixtures use 5-6-5 bit fields");
  return { bytes: out, rgba };
}

let heifEncAvailable: boolean | undefined;

/** Whether `heif-enc` can encode HEVC here, installing libheif-examples once when root. */
export function heifEnc(): boolean {
  if (heifEncAvailable !== undefined) return heifEncAvailable;
  const works = () =>
    spawnSync("heif-enc", ["--list-encoders"], { encoding: "utf8" }).stdout?.includes("x265");
  if (!works() && process.getuid?.() === 0) {
    spawnSync("apt-get", ["install", "-y", "-q", "libheif-examples"], { stdio: "ignore", timeout: 180_000 });
  }
  heifEncAvailable = works() === true;
  return heifEncAvailable;
}

/** The HEIC `heif-enc` makes of a PNG or JPEG (its ICC profile kept, alpha as an auxiliary image). */
export function heicOf(source: Uint8Array, quality = 60): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "heic-fixture-"));
  try {
    const input = join(dir, source[0] === 0xff ? "in.jpg" : "in.png");
    writeFileSync(input, source);
    execFileSync("heif-enc", ["-q", String(quality), "-o", join(dir, "out.heic"), input], {
      stdio: "ignore",
    });
    return new Uint8Array(readFileSync(join(dir, "out.heic")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
