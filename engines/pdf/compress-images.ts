import * as mupdf from "mupdf";
import sharp from "sharp";
import { ImageUse } from "./compress-image-use.ts";
import type { CompressionLevel } from "./compress-levels.ts";
import { indexedPalette, type Palette, toPaletteIndices } from "./compress-palette.ts";
import {
  deflateWithPredictor,
  filterList,
  type PredictedStream,
  predictedImage,
  repredictImage,
  writePredicted,
} from "./compress-predictors.ts";
import { everyObject } from "./every-object.ts";

/** Images beyond this many pixels are left as they are (decoding them would risk the memory cap). */
const MAX_PIXELS = 80_000_000;
/** Smallest side an image is ever resampled to. */
const MIN_SIDE = 16;
/** A new stream must save at least this share of the old one to be worth a second lossy encoding. */
const MIN_SAVING = 0.1;
/** Pixels sampled to tell a photo from a drawing, and the colour count above which it is a photo. */
const SAMPLE_PIXELS = 65_536;
const PHOTO_COLOURS = 256;

/** Filters whose images are bilevel scans kept exactly as they are (JBIG2, CCITT G3/G4). */
const BILEVEL_FILTERS = new Set(["JBIG2Decode", "CCITTFaxDecode"]);
/** Filters that store an image lossily already (re-encoding them as JPEG loses nothing in kind). */
const LOSSY_FILTERS = new Set(["DCTDecode", "JPXDecode"]);
/** Colour spaces whose samples a JPEG carries as they are (with their family's component count). */
const KEPT_FAMILIES: Record<string, number> = { DeviceGray: 1, CalGray: 1, DeviceRGB: 3, CalRGB: 3 };

export interface ImageReport {
  /** Images whose stream was replaced by a smaller one. */
  readonly recompressed: number;
  /** Of those, images resampled to a lower resolution. */
  readonly downsampled: number;
  /** Bytes of image streams before and after. */
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/**
 * Recompresses the images of a document in place: each image drawn at more than the level's
 * resolution is resampled to it, colour and grey photos are re-encoded with MozJPEG, drawings
 * (few colours) stay lossless (Flate). A soft mask (8-bit alpha) is resampled to the resolution its
 * image is drawn at and stays lossless. Bilevel images, stencil masks, colour-key masked images and
 * images with alpha inside the codestream are left as they are. Colour spaces other than grey and
 * RGB (CMYK, Lab, Indexed, Separation, DeviceN) become RGB as MuPDF renders them, as Ghostscript's
 * `/ebook` does (spot colours and overprint only matter on a printing press). A stream is replaced
 * only when the new one is clearly smaller.
 */
export async function recompressImages(
  pdf: mupdf.PDFDocument,
  level: CompressionLevel,
  progress: (share: number) => void,
): Promise<ImageReport> {
  const { images, masks, softMasks } = findImages(pdf);
  const candidates = images.filter((num) => !masks.has(num));
  const report = { recompressed: 0, downsampled: 0, bytesBefore: 0, bytesAfter: 0 };
  if (candidates.length === 0) {
    progress(1);
    return report;
  }
  const use = new ImageUse(pdf);
  try {
    use.watch(candidates);
    use.scan((index, count) => progress((0.3 * (index + 1)) / count));
  } finally {
    use.release();
  }
  // A soft mask is drawn where its image is: it takes the resolution its image is drawn at,
  // scaled by its own width (a mask may have other dimensions than its image).
  const maskDpi = new Map<number, number>();
  for (const [mask, owners] of softMasks) {
    for (const owner of owners) {
      const dpi = use.dpiOf(owner);
      if (dpi === undefined) continue;
      const scaled = dpi * widthRatio(pdf, mask, owner);
      maskDpi.set(mask, Math.min(maskDpi.get(mask) ?? scaled, scaled));
    }
  }
  const work = [...candidates, ...maskDpi.keys()];
  const replaced = new Set<number>();
  for (const [index, num] of work.entries()) {
    const isMask = maskDpi.has(num);
    const result = await recompressImage(pdf, num, level, isMask ? maskDpi.get(num) : use.dpiOf(num), isMask);
    if (result !== null) {
      replaced.add(num);
      report.recompressed++;
      if (result.downsampled) report.downsampled++;
      report.bytesBefore += result.before;
      report.bytesAfter += result.after;
    }
    progress(0.3 + (0.6 * (index + 1)) / work.length);
  }
  // Every other image stored losslessly (masks, bilevel and spot-colour images included) is
  // re-coded with a predictor when that saves.
  for (const num of images) {
    if (replaced.has(num)) continue;
    const before = rawLength(pdf, num);
    const saved = tryRepredict(pdf, num);
    if (saved > 0) {
      report.recompressed++;
      report.bytesBefore += before;
      report.bytesAfter += before - saved;
    }
  }
  progress(1);
  return report;
}

function rawLength(pdf: mupdf.PDFDocument, num: number): number {
  try {
    return pdf.newIndirect(num).readRawStream().getLength();
  } catch {
    return 0;
  }
}

/** repredictImage on one image object; an image that fails to load or decode is left alone. */
function tryRepredict(pdf: mupdf.PDFDocument, num: number): number {
  try {
    const object = pdf.newIndirect(num);
    return repredictImage(pdf, object, componentCount(pdf, object));
  } catch {
    return 0;
  }
}

/** Components per sample of an image's colour space, as MuPDF reads it (1 for a stencil mask). */
function componentCount(pdf: mupdf.PDFDocument, object: mupdf.PDFObject): number {
  const image = pdf.loadImage(object);
  try {
    return image.getColorSpace()?.getNumberOfComponents() ?? 1;
  } finally {
    image.destroy();
  }
}

/** How many times wider `mask` is than `owner` (1 when either width is unreadable). */
function widthRatio(pdf: mupdf.PDFDocument, mask: number, owner: number): number {
  const maskWidth = pdf.newIndirect(mask).get("Width");
  const ownerWidth = pdf.newIndirect(owner).get("Width");
  if (!maskWidth.isNumber() || !ownerWidth.isNumber() || ownerWidth.asNumber() <= 0) return 1;
  return maskWidth.asNumber() / ownerWidth.asNumber();
}

/**
 * Image XObjects of the document, the images used as another image's mask, and of those the soft
 * masks (/SMask) with the images they belong to.
 */
function findImages(pdf: mupdf.PDFDocument): {
  images: number[];
  masks: Set<number>;
  softMasks: Map<number, number[]>;
} {
  const images: number[] = [];
  const masks = new Set<number>();
  const softMasks = new Map<number, number[]>();
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (!object.isStream() || object.get("Subtype").asName() !== "Image") continue;
      images.push(num);
      for (const key of ["SMask", "Mask"]) {
        const mask = object.get(key);
        if (!mask.isIndirect()) continue;
        masks.add(mask.asIndirect());
        if (key === "SMask")
          softMasks.set(mask.asIndirect(), [...(softMasks.get(mask.asIndirect()) ?? []), num]);
      }
    } catch {
      // Objects that fail to load are skipped.
    }
  }
  return { images, masks, softMasks };
}

function filterNames(object: mupdf.PDFObject): string[] {
  return filterList(object) ?? [];
}

/** The colour space entry to write with 1 or 3 components: the original one when a JPEG carries it as is. */
function keptColourSpace(pdf: mupdf.PDFDocument, object: mupdf.PDFObject, components: number) {
  const space = object.get("ColorSpace");
  if (space.isName() && KEPT_FAMILIES[space.asName()] === components) return space;
  if (space.isArray()) {
    const family = space.get(0).isName() ? space.get(0).asName() : "";
    if (family === "ICCBased" && space.get(1).get("N").asNumber() === components) return space;
    if (KEPT_FAMILIES[family] === components) return space;
  }
  return pdf.newName(components === 1 ? "DeviceGray" : "DeviceRGB");
}

interface Decoded {
  readonly pixels: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3;
  readonly colourSpace: mupdf.PDFObject;
  /** The samples were converted to RGB from another colour space. */
  readonly converted: boolean;
  /** The colours of the image's Indexed colour space as decoded, when it has one. */
  readonly palette: Palette | null;
}

/** The image's samples as packed grey or RGB bytes, or null when it is one to leave alone. */
function decode(pdf: mupdf.PDFDocument, object: mupdf.PDFObject): Decoded | null {
  if (object.get("ImageMask").isBoolean() && object.get("ImageMask").asBoolean()) return null;
  if (object.get("Mask").isArray()) return null;
  const inData = object.get("SMaskInData");
  if (inData.isNumber() && inData.asNumber() !== 0) return null;
  if (filterNames(object).some((name) => BILEVEL_FILTERS.has(name))) return null;
  // An image with a soft mask decodes with the mask applied as alpha: its colours alone come from
  // a copy without the mask (the mask is resampled on its own).
  const softMask = object.get("SMask");
  const copy = softMask.isNull()
    ? null
    : pdf.addRawStream(object.readRawStream(), withoutKey(pdf, object, "SMask"));
  const image = pdf.loadImage(copy ?? object);
  try {
    const width = image.getWidth();
    const height = image.getHeight();
    if (image.getImageMask() || image.getBitsPerComponent() < 8 || width * height > MAX_PIXELS) return null;
    let pixmap = image.toPixmap();
    try {
      if (pixmap.getAlpha()) return null;
      const type = pixmap.getColorSpace()?.getType();
      const converted = type !== "Gray" && type !== "RGB";
      if (converted) {
        const rgb = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, false);
        pixmap.destroy();
        pixmap = rgb;
      }
      const channels = pixmap.getNumberOfComponents() === 1 ? 1 : 3;
      const pixels = packed(pixmap, channels);
      return {
        pixels,
        width,
        height,
        channels,
        colourSpace: converted ? pdf.newName("DeviceRGB") : keptColourSpace(pdf, object, channels),
        converted,
        palette: paletteOf(object, pixels, channels),
      };
    } finally {
      pixmap.destroy();
    }
  } finally {
    image.destroy();
    if (copy !== null) pdf.deleteObject(copy);
  }
}

/** The palette of an Indexed image stored losslessly (see indexedPalette), else null. */
function paletteOf(object: mupdf.PDFObject, pixels: Uint8Array, channels: number): Palette | null {
  if (filterNames(object).some((name) => LOSSY_FILTERS.has(name))) return null;
  if (!object.get("ColorSpace").isArray()) return null;
  return indexedPalette(object, object.readStream().asUint8Array(), pixels, channels);
}

/** A copy of a stream's dictionary without `key` (and without /Length, which the new stream sets). */
function withoutKey(pdf: mupdf.PDFDocument, stream: mupdf.PDFObject, key: string): mupdf.PDFObject {
  const copy = pdf.newDictionary();
  stream.forEach((value, name) => {
    if (name !== key && name !== "Length") copy.put(name, value);
  });
  return copy;
}

/** Pixmap rows without padding. */
function packed(pixmap: mupdf.Pixmap, channels: number): Uint8Array {
  const width = pixmap.getWidth();
  const height = pixmap.getHeight();
  const stride = pixmap.getStride();
  const source = pixmap.getPixels();
  const row = width * channels;
  if (stride === row) return new Uint8Array(source.buffer, source.byteOffset, row * height).slice();
  const out = new Uint8Array(row * height);
  for (let y = 0; y < height; y++) out.set(source.subarray(y * stride, y * stride + row), y * row);
  return out;
}

/** Whether sampled pixels show more distinct colours than a drawing or screenshot has. */
function looksLikePhoto(image: Decoded): boolean {
  const { pixels, channels } = image;
  const count = pixels.length / channels;
  const step = Math.max(1, Math.floor(count / SAMPLE_PIXELS));
  const colours = new Set<number>();
  for (let p = 0; p < count; p += step) {
    const i = p * channels;
    colours.add(
      channels === 1
        ? (pixels[i] ?? 0)
        : ((pixels[i] ?? 0) << 16) | ((pixels[i + 1] ?? 0) << 8) | (pixels[i + 2] ?? 0),
    );
    if (colours.size > PHOTO_COLOURS) return true;
  }
  return false;
}

/** The image's own samples re-coded with a predictor, or null when it is not stored losslessly. */
function losslessCandidate(pdf: mupdf.PDFDocument, object: mupdf.PDFObject): PredictedStream | null {
  try {
    return predictedImage(object, componentCount(pdf, object));
  } catch {
    return null;
  }
}

interface Replaced {
  readonly downsampled: boolean;
  readonly before: number;
  readonly after: number;
}

async function recompressImage(
  pdf: mupdf.PDFDocument,
  num: number,
  level: CompressionLevel,
  dpi: number | undefined,
  softMask: boolean,
): Promise<Replaced | null> {
  const object = pdf.newIndirect(num);
  let image: Decoded | null;
  let before: number;
  try {
    before = object.readRawStream().getLength();
    image = decode(pdf, object);
  } catch {
    return null;
  }
  if (image === null) return null;
  const lossy = filterNames(object).some((name) => LOSSY_FILTERS.has(name));
  const scale = dpi !== undefined && dpi > level.downsampleAbove ? level.targetDpi / dpi : 1;
  const width = Math.max(Math.min(MIN_SIDE, image.width), Math.round(image.width * scale));
  const height = Math.max(Math.min(MIN_SIDE, image.height), Math.round(image.height * scale));
  const downsampled = width < image.width && height < image.height;
  // Soft masks stay lossless: JPEG noise in a mask shows as halos along every edge it cuts.
  const photo = !softMask && (lossy || looksLikePhoto(image));
  // A drawing at its own resolution keeps its samples and colour space (re-coded with a predictor
  // after this pass when that saves).
  if (!photo && !downsampled) return null;
  let pipeline = sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  });
  if (downsampled) pipeline = pipeline.resize(width, height, { kernel: "lanczos3", fit: "fill" });
  if (image.channels === 1) pipeline = pipeline.toColourspace("b-w");
  let stream: Uint8Array;
  let predicted: PredictedStream | null = null;
  if (photo) {
    stream = await pipeline.jpeg({ quality: level.jpegQuality, mozjpeg: true }).toBuffer();
    // Smooth images (gradients, renderings) stored losslessly can be smaller still, exactly.
    const exact = downsampled ? null : losslessCandidate(pdf, object);
    if (exact !== null && exact.stream.length < stream.length) {
      if (exact.stream.length > before * (1 - MIN_SAVING)) return null;
      writePredicted(pdf, object, exact);
      return { downsampled, before, after: exact.stream.length };
    }
  } else {
    // An Indexed image goes back into its palette: one byte a pixel instead of three.
    const pixels = new Uint8Array(await pipeline.raw().toBuffer());
    const { palette, channels } = image;
    predicted = deflateWithPredictor({
      data: palette === null ? pixels : toPaletteIndices(pixels, channels, palette),
      width,
      height,
      colors: palette === null ? channels : 1,
      bitsPerComponent: 8,
    });
    stream = predicted.stream;
  }
  if (stream.length > before * (1 - MIN_SAVING)) return null;
  if (predicted !== null) writePredicted(pdf, object, predicted);
  else {
    object.writeRawStream(stream);
    object.put("Filter", pdf.newName("DCTDecode"));
    object.delete("DecodeParms");
  }
  object.delete("Decode");
  object.delete("SMaskInData");
  object.put("Width", width);
  object.put("Height", height);
  object.put("BitsPerComponent", 8);
  object.put(
    "ColorSpace",
    predicted !== null && image.palette !== null ? object.get("ColorSpace") : image.colourSpace,
  );
  return { downsampled, before, after: stream.length };
}
