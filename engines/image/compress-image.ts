/**
 * Compress image, in the container (libvips through sharp); the file type stays the same.
 * - JPEG: MozJPEG at the chosen quality, 4:2:0 chroma, EXIF orientation applied.
 * - PNG: palette quantisation (libimagequant) with dithering, kept only when it is smaller and its
 *   SSIM against the original reaches the quality's floor; otherwise lossless zlib level 9 with
 *   adaptive filters. Transparency is kept.
 * - WebP: lossy WebP with alpha kept; animated WebP keeps its frames.
 * - GIF: re-quantised GIF, frames kept, with inter-frame reuse at lower qualities.
 * - AVIF: AVIF again (AV1 through libheif/aom) at the chosen quality.
 * - TIFF: TIFF again, every page kept: JPEG-compressed for colour photos, Deflate with the
 *   horizontal predictor for grey images and images with alpha.
 * - HEIC and BMP, which cannot be written here (no HEVC encoder; BMP is uncompressed by nature),
 *   become the nearest common format: JPEG, or PNG when the image has alpha. The facts
 *   `formatFrom`/`formatTo` say so.
 * Colour is converted to sRGB through an embedded ICC profile and metadata (EXIF, GPS, XMP) is
 * stripped. A result that is not smaller than the input is never returned: the original is, with
 * the fact `alreadyOptimized`.
 *
 * PNG quantisation has no WASM build at the edge (no maintained libimagequant on npm), so the tool
 * runs only here: one behaviour for every size and type.
 */
import sharp, { type Sharp } from "sharp";
import {
  AppError,
  type JobFacts,
  jpegQuality,
  MAX_IMAGE_PIXELS,
  type QualityPreset,
} from "../../contract/index.ts";
import type { EngineHandler, EngineInput, ProgressReporter } from "../types.ts";
import { fidelity } from "./compress-fidelity.ts";
import { sharpReadable } from "./container-decode.ts";
import { formatName, undecodableImage } from "./format-name.ts";
import { type ImageInfo, type ImageKind, readImageInfo } from "./image-info.ts";
import { joinTiffPages } from "./tiff-join.ts";

export interface CompressImageOptions {
  readonly quality: QualityPreset | number;
}

/** How the result was made (a fact the screen explains). */
export type CompressMethod = "mozjpeg" | "palette" | "lossless" | "webp" | "gif" | "avif" | "tiff";

interface Candidate {
  readonly bytes: Uint8Array;
  readonly method: CompressMethod;
  /** SSIM against the original when it was measured. */
  readonly ssim?: number;
}

// One image per job: libvips' operation cache would only hold memory between jobs.
sharp.cache(false);

/**
 * Lowest SSIM a quantised PNG may have at quality `q` (30–100): 0.90 at 30 rising to 0.97 at 100;
 * medium (85) needs 0.955. Below it the palette visibly bands or loses detail, and the lossless
 * result is used.
 */
export function paletteSsimFloor(quality: number): number {
  return 0.9 + (0.07 * (quality - 30)) / 70;
}

/** GIF frames reuse the previous frame's pixels within this error (0 = exact) at quality `q`. */
function gifFrameError(quality: number): number {
  return Math.round((100 - quality) / 8);
}

function bytesOf(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const undecodable = undecodableImage;

const OPEN = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" } as const;

function open(input: Uint8Array, animated: boolean): Sharp {
  return sharp(input, { ...OPEN, animated });
}

async function encode(pipeline: Sharp, kind: ImageKind): Promise<Uint8Array> {
  try {
    return bytesOf(await pipeline.toBuffer());
  } catch (error) {
    throw undecodable(kind, error);
  }
}

async function compressJpeg(bytes: Uint8Array, quality: number): Promise<Candidate> {
  const pipeline = open(bytes, false).rotate().jpeg({ quality, mozjpeg: true, chromaSubsampling: "4:2:0" });
  return { bytes: await encode(pipeline, "jpeg"), method: "mozjpeg" };
}

/** Entries in the PLTE chunk of a PNG libvips wrote (0 when it has none). */
function paletteEntries(png: Uint8Array): number {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at + 8 <= png.length; ) {
    const length = view.getUint32(at);
    if (view.getUint32(at + 4) === 0x504c5445) return Math.floor(length / 3);
    at += 12 + length;
  }
  return 0;
}

/** Palette entries of the smallest bit depth (1, 2 or 4 bits) holding `count` colours; 256 otherwise. */
function paletteSize(count: number): number {
  return [2, 4, 16].find((size) => count <= size) ?? 256;
}

async function quantise(bytes: Uint8Array, quality: number): Promise<Uint8Array> {
  const settings = { palette: true, quality, effort: 7, dither: 1, compressionLevel: 9 } as const;
  const full = await encode(open(bytes, false).rotate().png(settings), "png");
  // libvips writes 8-bit indices whatever the colours used; a few colours fit in 1, 2 or 4 bits.
  const colours = paletteSize(paletteEntries(full));
  if (colours === 256) return full;
  const packed = await encode(
    open(bytes, false)
      .rotate()
      .png({ ...settings, colours }),
    "png",
  );
  return packed.length < full.length ? packed : full;
}

async function compressPng(
  bytes: Uint8Array,
  quality: number,
  hasAlpha: boolean,
  progress: ProgressReporter,
): Promise<Candidate> {
  const palette = await quantise(bytes, quality);
  progress(45);
  if (palette.length < bytes.length) {
    const score = await fidelity(bytes, palette, hasAlpha);
    progress(60);
    if (score >= paletteSsimFloor(quality)) return { bytes: palette, method: "palette", ssim: score };
  }
  // Quantisation would hurt (or gains nothing): the best lossless encoding instead. It is tried only
  // here because zlib level 9 with adaptive filters costs about as much time as the quantiser.
  const lossless = await encode(
    open(bytes, false).rotate().png({ compressionLevel: 9, adaptiveFiltering: true }),
    "png",
  );
  return { bytes: lossless, method: "lossless" };
}

async function compressWebp(bytes: Uint8Array, quality: number, animated: boolean): Promise<Candidate> {
  let pipeline = open(bytes, animated);
  if (!animated) pipeline = pipeline.rotate();
  pipeline = pipeline.webp({ quality, alphaQuality: Math.max(quality, 90), effort: 6, smartSubsample: true });
  return { bytes: await encode(pipeline, "webp"), method: "webp" };
}

async function compressAvif(bytes: Uint8Array, quality: number): Promise<Candidate> {
  // Effort 4 of 9 (libvips' default): higher efforts multiply aom's encode time on 2 cores.
  const pipeline = open(bytes, false).rotate().avif({ quality, effort: 4 });
  return { bytes: await encode(pipeline, "avif"), method: "avif" };
}

async function compressTiff(
  bytes: Uint8Array,
  quality: number,
  info: ImageInfo,
  pages: number,
): Promise<Candidate> {
  const photo = info.hasAlpha !== true && !info.grey;
  const write = (pipeline: Sharp) =>
    photo
      ? pipeline.toColourspace("srgb").tiff({ compression: "jpeg", quality })
      : pipeline.tiff({ compression: "deflate", predictor: "horizontal" });
  if (pages > 1 && !(await samePageSizes(bytes, pages))) {
    // libvips reads (and writes) several pages at once only when they share one size: each page
    // alone, then the pages joined. Each page keeps its Orientation tag unturned, as the pages of
    // one size do (the verification and the facts take the stored size).
    const parts: Uint8Array[] = [];
    for (let page = 0; page < pages; page++)
      parts.push(await encode(write(sharp(bytes, { ...OPEN, page })), "tiff"));
    return { bytes: joinTiffPages(parts), method: "tiff" };
  }
  let pipeline = open(bytes, pages > 1);
  if (pages === 1) pipeline = pipeline.rotate();
  return { bytes: await encode(write(pipeline), "tiff"), method: "tiff" };
}

/**
 * Every page of a multi-page TIFF has the first page's size. Pages of several sizes are refused
 * when together they exceed the pixel limit (the frames check counts the first page's size only).
 */
async function samePageSizes(bytes: Uint8Array, pages: number): Promise<boolean> {
  let same = true;
  let pixels = 0;
  try {
    const first = await sharp(bytes, OPEN).metadata();
    pixels = first.width * first.height;
    for (let page = 1; page < pages; page++) {
      const meta = await sharp(bytes, { ...OPEN, page }).metadata();
      if (meta.width !== first.width || meta.height !== first.height) same = false;
      pixels += meta.width * meta.height;
    }
  } catch (error) {
    throw undecodable("tiff", error);
  }
  if (pixels > MAX_IMAGE_PIXELS)
    throw new AppError("IMAGE_TOO_LARGE", `The image's pages exceed ${MAX_IMAGE_PIXELS} pixels.`, {
      frames: pages,
      pixels,
      maxPixels: MAX_IMAGE_PIXELS,
    });
  return same;
}

async function compressGif(bytes: Uint8Array, quality: number): Promise<Candidate> {
  const error = gifFrameError(quality);
  const pipeline = open(bytes, true).gif({
    effort: 10,
    dither: quality >= 85 ? 1 : 0.5,
    interFrameMaxError: error,
    interPaletteMaxError: 3 + error,
  });
  return { bytes: await encode(pipeline, "gif"), method: "gif" };
}

/** Size after EXIF orientation; refuses images over the pixel limit before any decode. */
function checkedInfo(input: EngineInput): ImageInfo & { readonly shown: { width: number; height: number } } {
  const info = readImageInfo(input.bytes);
  if (info.kind !== input.kind)
    throw new AppError("IMAGE_DAMAGED", "The image's content does not match its type.");
  if (info.width * info.height > MAX_IMAGE_PIXELS) {
    throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${MAX_IMAGE_PIXELS} pixels.`, {
      width: info.width,
      height: info.height,
      maxPixels: MAX_IMAGE_PIXELS,
    });
  }
  const turned = info.orientation >= 5;
  return {
    ...info,
    shown: turned ? { width: info.height, height: info.width } : { width: info.width, height: info.height },
  };
}

/** Decodes the result again: a damaged or wrongly sized result is never reported as a success. */
async function verify(bytes: Uint8Array, kind: ImageKind, width: number, height: number): Promise<void> {
  try {
    // A TIFF's first page (its pages may differ in size, which libvips reads only one by one).
    const metadata = await sharp(bytes, { animated: kind !== "tiff" }).metadata();
    const frameHeight = metadata.pageHeight ?? metadata.height;
    // sharp names AVIF by its container, HEIF.
    if (
      metadata.format !== (kind === "avif" ? "heif" : kind) ||
      metadata.width !== width ||
      frameHeight !== height
    ) {
      throw new Error(
        `got ${metadata.format} ${metadata.width}×${frameHeight}, expected ${kind} ${width}×${height}`,
      );
    }
    await sharp(bytes, { failOn: "error" })
      .resize({ width: Math.max(1, Math.ceil(width / 8)) })
      .raw()
      .toBuffer();
  } catch (error) {
    throw new AppError("INTERNAL", "The compressed image failed verification.", undefined, messageOf(error));
  }
}

/** "photo.png" → "photo-compressed.png"; with `extension`, the result's own ("photo-compressed.jpg"). */
function compressedName(name: string, extension?: string): string {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const suffix = extension ? `.${extension}` : dot > 0 ? name.slice(dot) : "";
  return `${stem}-compressed${suffix}`;
}

async function frameCount(bytes: Uint8Array, kind: ImageKind): Promise<number> {
  if (kind !== "gif" && kind !== "webp" && kind !== "tiff") return 1;
  try {
    return (await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata()).pages ?? 1;
  } catch (error) {
    throw undecodable(kind, error);
  }
}

export const compressImage: EngineHandler<CompressImageOptions> = async (inputs, options, progress) => {
  const [input, ...rest] = inputs;
  if (input === undefined) throw new AppError("NO_FILE", "Compress image needs one image.");
  if (rest.length > 0) throw new AppError("TOO_MANY_FILES", "Compress image takes one image at a time.");
  const info = checkedInfo(input);
  const quality = jpegQuality(options.quality);
  const frames = await frameCount(input.bytes, info.kind);
  // Every frame is decoded at the logical screen's size: a 1000-frame 1000×1000 GIF is 1 G pixels.
  if (info.width * info.height * frames > MAX_IMAGE_PIXELS) {
    throw new AppError("IMAGE_TOO_LARGE", `The image's frames exceed ${MAX_IMAGE_PIXELS} pixels.`, {
      width: info.width,
      height: info.height,
      frames,
      maxPixels: MAX_IMAGE_PIXELS,
    });
  }
  progress(5);
  // HEIC and BMP are written as JPEG (PNG with alpha): decoded first, then compressed as those are.
  const converted = info.kind === "heic" || info.kind === "bmp";
  const source = await sharpReadable(input.bytes, info.kind);
  const kind: ImageKind = converted ? (info.hasAlpha ? "png" : "jpeg") : info.kind;
  progress(converted ? 25 : 5);
  const candidate =
    kind === "jpeg"
      ? await compressJpeg(source, quality)
      : kind === "png"
        ? await compressPng(source, quality, info.hasAlpha !== false, progress)
        : kind === "webp"
          ? await compressWebp(source, quality, frames > 1)
          : kind === "avif"
            ? await compressAvif(source, quality)
            : kind === "tiff"
              ? await compressTiff(source, quality, info, frames)
              : await compressGif(source, quality);
  progress(85);
  const { width, height } = frames > 1 ? info : info.shown;
  const facts: JobFacts = { width, height, quality, frames, metadataStripped: true };
  if (candidate.bytes.length >= input.bytes.length) {
    progress(100);
    return {
      bytes: input.bytes,
      kind: info.kind,
      name: input.name,
      facts: { ...facts, alreadyOptimized: true, metadataStripped: false },
    };
  }
  await verify(candidate.bytes, kind, width, height);
  progress(100);
  const made: JobFacts = {
    ...facts,
    method: candidate.method,
    alreadyOptimized: false,
    // Said on the result: the file changed type because its own cannot be written here.
    ...(converted ? { formatFrom: formatName(info.kind), formatTo: formatName(kind) } : {}),
  };
  if (candidate.ssim !== undefined) made.ssim = Math.round(candidate.ssim * 10_000) / 10_000;
  const name = compressedName(input.name, converted ? formatName(kind).toLowerCase() : undefined);
  return { bytes: candidate.bytes, kind, name, facts: made };
};
