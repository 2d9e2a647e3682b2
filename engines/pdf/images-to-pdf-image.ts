/**
 * One input image as a PDF image XObject, by the cheapest path that keeps it exact:
 * - a JPEG PDF can read (8-bit baseline/progressive, grey/RGB/CMYK) goes in byte for byte;
 * - a PNG without transparency or interlacing goes in as its own zlib data with the PNG predictor
 *   (the PDF filter decodes PNG rows as they are), 16-bit and palette images included;
 * - anything else (WebP, GIF, PNGs with alpha, tRNS or interlacing, unusual JPEGs) is decoded by
 *   sharp (libvips) to 8-bit sRGB or grey, written as lossless PNG data the same way, with its
 *   alpha channel as a soft mask, so transparent areas show the white page. GIF and WebP
 *   animations give their first frame.
 * - HEIC, AVIF, TIFF and BMP are decoded in the container (engines/image/container-decode.ts) with
 *   their orientation applied to the pixels, then written the same way; every page of a
 *   multi-page TIFF (a fax, a scan batch) becomes an image of its own.
 * For the other kinds EXIF orientation is not applied to the pixels: the page's drawing matrix
 * turns the image.
 */
import { createHash } from "node:crypto";
import type * as mupdf from "mupdf";
import sharp, { type PngOptions, type Sharp } from "sharp";
import { AppError, MAX_IMAGE_PIXELS } from "../../contract/index.ts";
import { concatBytes } from "../bytes.ts";
import { sharpReadable } from "../image/container-decode.ts";
import type { Orientation } from "../image/exif-orientation.ts";
import { undecodableImage } from "../image/format-name.ts";
import { type ImageInfo, readImageInfo } from "../image/image-info.ts";
import { checkInputJpeg } from "../image/jpeg-check.ts";
import { type PngLayout, readPngLayout } from "../image/png-chunks.ts";
import { checkPngDataSize, checkPngImageData } from "../image/png-image-data.ts";
import { DEVICE_SPACES, jpegImageDictionary, readPdfJpegFrame } from "./images-to-pdf-jpeg.ts";
import { indexColours } from "./images-to-pdf-palette.ts";

// Each job decodes each image once: libvips' operation cache would only hold memory.
sharp.cache(false);

/**
 * Pages one TIFF may bring (a long fax or scan batch); more is refused with TOO_MANY_PAGES before
 * any page is decoded. Not measured yet at this size: the job time limit is the real bound.
 */
export const MAX_TIFF_PAGES = 500;

/** Kinds sharp decodes here with their orientation applied to the pixels, page by page. */
const DECODE_OPTIONS = { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS } as const;

const DECODED_KINDS: readonly string[] = ["heic", "avif", "tiff", "bmp"];

export interface EmbeddedImage {
  readonly ref: mupdf.PDFObject;
  /** Stored pixel size (before orientation). */
  readonly width: number;
  readonly height: number;
  readonly orientation: Orientation;
  /** An animation of which only the first frame was placed. */
  readonly firstFrameOnly: boolean;
}

/**
 * PNG output settings for decoded images: adaptive row filters (photos and gradients compress far
 * better than with filter None) and zlib level 5 (measured on a 14.7 MP RGBA PNG: level 6 took
 * 1.5× as long for 2.5 % less). Palette indices are not a signal a filter can predict: filter
 * None, as the PNG specification advises (a GIF's indices came out 40 % smaller than filtered).
 */
const PNG_SETTINGS = { compressionLevel: 5, adaptiveFiltering: true } as const;
const INDEXED_PNG_SETTINGS = { compressionLevel: 5, adaptiveFiltering: false } as const;

type ComponentCount = keyof typeof DEVICE_SPACES;

/** Places images in one document, sharing identical ICC profiles between them. */
export class ImageEmbedder {
  private readonly profiles = new Map<string, mupdf.PDFObject>();
  private readonly doc: mupdf.PDFDocument;

  constructor(doc: mupdf.PDFDocument) {
    this.doc = doc;
  }

  /**
   * The images of one file: one, or every page of a multi-page TIFF. Throws AppError
   * (IMAGE_DAMAGED, IMAGE_TOO_LARGE, UNSUPPORTED_FILE_TYPE, TOO_MANY_PAGES) naming the file by index.
   */
  async embed(bytes: Uint8Array, fileIndex: number): Promise<EmbeddedImage[]> {
    try {
      return await this.embedImages(bytes);
    } catch (error) {
      const context = { file_index: fileIndex };
      if (error instanceof AppError)
        throw new AppError(error.code, error.message, { ...error.context, ...context }, error.detail);
      // sharp's and MuPDF's own text goes to the log line only (detail), never to the API message.
      const detail = error instanceof Error ? error.message : String(error);
      throw new AppError("IMAGE_DAMAGED", "An image could not be decoded.", context, detail);
    }
  }

  private async embedImages(bytes: Uint8Array): Promise<EmbeddedImage[]> {
    const info = readImageInfo(bytes);
    if (info.width * info.height > MAX_IMAGE_PIXELS) {
      throw new AppError("IMAGE_TOO_LARGE", `The image exceeds ${MAX_IMAGE_PIXELS} pixels.`, {
        width: info.width,
        height: info.height,
        maxPixels: MAX_IMAGE_PIXELS,
      });
    }
    if (DECODED_KINDS.includes(info.kind)) return this.addPages(bytes, info.kind);
    const placed = { width: info.width, height: info.height, orientation: info.orientation };
    if (info.kind === "jpeg") {
      const frame = readPdfJpegFrame(bytes);
      if (frame !== undefined) {
        // A walk of its structure, without decoding: 0.27 s for an 18 MP progressive photo, where
        // libjpeg's decode at 1/8 scale took 1.6 s (progressive scans cannot be skipped).
        checkInputJpeg(bytes, frame);
        const profile = (await sharp(bytes).metadata()).icc;
        const colorSpace = this.colorSpace(frame.components as ComponentCount, profile);
        const ref = this.doc.addRawStream(bytes, jpegImageDictionary(frame, colorSpace));
        return [{ ref, ...placed, width: frame.width, height: frame.height, firstFrameOnly: false }];
      }
    }
    if (info.kind === "png") {
      const layout = readPngLayout(bytes);
      if (isPdfReadyPng(layout)) {
        await checkPngImageData(layout);
        const profile = layout.iccp && (await sharp(bytes).metadata()).icc;
        return [{ ref: this.addPng(layout, { profile }), ...placed, firstFrameOnly: false }];
      }
      checkPngDataSize(layout);
    }
    const { ref, firstFrameOnly } = await this.addDecoded(sharp(bytes, DECODE_OPTIONS));
    return [{ ref, firstFrameOnly, ...placed }];
  }

  /**
   * Every page of a TIFF, or the one image of a HEIC, AVIF or BMP, decoded upright (orientation
   * applied). A HEIF file may hold several top-level images (alternates, a collection) of which one
   * is the primary, the image viewers show and the converters convert: only that one becomes a page.
   */
  private async addPages(bytes: Uint8Array, kind: ImageInfo["kind"]): Promise<EmbeddedImage[]> {
    const readable = await sharpReadable(bytes, kind);
    try {
      if (kind !== "tiff") {
        const added = await this.addDecoded(sharp(readable, DECODE_OPTIONS).rotate());
        return [{ ...added, orientation: 1, firstFrameOnly: false }];
      }
      const pages = (await sharp(readable, DECODE_OPTIONS).metadata()).pages ?? 1;
      if (pages > MAX_TIFF_PAGES) {
        throw new AppError("TOO_MANY_PAGES", `The image has ${pages} pages.`, {
          pages,
          max_pages: MAX_TIFF_PAGES,
        });
      }
      const images: EmbeddedImage[] = [];
      for (let page = 0; page < pages; page++) {
        const added = await this.addDecoded(sharp(readable, { ...DECODE_OPTIONS, page }).rotate());
        images.push({ ...added, orientation: 1, firstFrameOnly: false });
      }
      return images;
    } catch (error) {
      throw undecodableImage(kind, error);
    }
  }

  /**
   * Decodes with sharp (first frame), then adds colour (as palette indices when it has at most 256
   * colours) and alpha as lossless PNG-predicted data.
   */
  private async addDecoded(
    image: Sharp,
  ): Promise<{ ref: mupdf.PDFObject; firstFrameOnly: boolean; width: number; height: number }> {
    const frames = (await image.metadata()).pages ?? 1;
    // Samples come out as 8-bit sRGB (or grey), converted through any embedded ICC profile; 16-bit
    // sources are scaled to 8 bits.
    const { data, info } = await image.raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    const { width, height, channels } = info;
    const encode = (pipeline: Sharp, settings: PngOptions = PNG_SETTINGS) =>
      pipeline.png(settings).toBuffer();
    // sharp writes a one-channel raw image as RGB unless told it is grey.
    const grey = (pipeline: Sharp) => pipeline.toColourspace("b-w");
    const raw = { width, height, channels };
    // Grey + alpha or RGB + alpha: the alpha channel is the last one.
    const alphaChannel = channels === 2 ? 1 : channels === 4 ? 3 : undefined;
    let smask: mupdf.PDFObject | undefined;
    if (alphaChannel !== undefined && !isOpaque(data, channels)) {
      const alpha = await encode(grey(sharp(data, { raw }).extractChannel(alphaChannel)));
      smask = this.addPng(readPngLayout(alpha), {});
    }
    const indexed = channels >= 3 ? indexColours(data, channels) : undefined;
    let colour: Buffer;
    if (indexed) {
      const indices = grey(sharp(indexed.indices, { raw: { width, height, channels: 1 } }));
      colour = await encode(indices, INDEXED_PNG_SETTINGS);
    } else {
      const pipeline = alphaChannel === undefined ? sharp(data, { raw }) : sharp(data, { raw }).removeAlpha();
      colour = await encode(channels <= 2 ? grey(pipeline) : pipeline);
    }
    const ref = this.addPng(readPngLayout(colour), { smask, palette: indexed?.palette });
    return { ref, firstFrameOnly: frames > 1, width, height };
  }

  /**
   * A PDF-ready PNG (see isPdfReadyPng) as an image XObject of its own zlib data. A `palette`
   * makes its grey samples indices into that palette.
   */
  private addPng(
    layout: PngLayout,
    extra: {
      profile?: Uint8Array | undefined;
      smask?: mupdf.PDFObject | undefined;
      palette?: Uint8Array | undefined;
    },
  ) {
    const { width, height, bitDepth, colorType } = layout.header;
    const palette = extra.palette ?? (colorType === 3 ? layout.palette : undefined);
    const colors = colorType === 2 ? 3 : 1;
    if (extra.palette && (colorType !== 0 || bitDepth !== 8))
      throw new AppError("INTERNAL", `palette indices came out as PNG type ${colorType}, depth ${bitDepth}`);
    const colorSpace = palette
      ? [
          "Indexed",
          this.colorSpace(3, extra.profile),
          palette.length / 3 - 1,
          this.doc.newByteString(palette),
        ]
      : this.colorSpace(colors as ComponentCount, extra.profile);
    const dictionary = {
      Type: "XObject",
      Subtype: "Image",
      Width: width,
      Height: height,
      BitsPerComponent: bitDepth,
      ColorSpace: colorSpace,
      Filter: "FlateDecode",
      // Predictor 15: each row starts with its PNG filter type byte, as in the PNG file.
      DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: bitDepth, Columns: width },
      ...(extra.smask ? { SMask: extra.smask } : {}),
    };
    return this.doc.addRawStream(concatBytes(layout.imageData), dictionary);
  }

  /**
   * The colour space for `components` samples: an ICCBased space when the image carries a
   * well-formed profile for that many components (one object per distinct profile), otherwise the
   * device space (viewers treat DeviceRGB as sRGB).
   */
  private colorSpace(components: ComponentCount, profile: Uint8Array | undefined): unknown {
    const device = DEVICE_SPACES[components];
    if (profile === undefined || iccComponents(profile) !== components) return device;
    const key = createHash("sha256").update(profile).digest("hex");
    let stream = this.profiles.get(key);
    if (stream === undefined) {
      stream = this.doc.addStream(profile, { N: components, Alternate: device });
      this.profiles.set(key, stream);
    }
    return ["ICCBased", stream];
  }
}

/**
 * A PNG whose zlib data a PDF reads as it is: not interlaced (Adam7 passes are not rows) and with
 * no transparency (alpha is interleaved with colour; PDF keeps it in a separate mask).
 */
function isPdfReadyPng(layout: PngLayout): boolean {
  const { colorType, interlaced } = layout.header;
  return (
    !interlaced &&
    layout.transparency === undefined &&
    (colorType === 0 || colorType === 2 || colorType === 3)
  );
}

/** Components of an ICC profile's data colour space (header bytes 16–19), if it is well-formed. */
function iccComponents(profile: Uint8Array): number | undefined {
  if (profile.length < 132 || String.fromCharCode(...profile.subarray(36, 40)) !== "acsp") return undefined;
  const space = String.fromCharCode(...profile.subarray(16, 20));
  return ({ GRAY: 1, "RGB ": 3, CMYK: 4 } as Record<string, number>)[space];
}

function isOpaque(data: Uint8Array, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 255) return false;
  return true;
}
