/**
 * The images embedded in a PDF, each once, in page order: JPEG images (DCTDecode) exactly as
 * stored when a viewer shows them as they are (grey or RGB, 8 bits, no Decode inversion);
 * every other image decoded by MuPDF, brought to grey or sRGB (CMYK, Lab, Indexed, JPX, 16-bit…)
 * and encoded as JPEG. Masks (image masks, soft masks, colour-key masks) are not images of their
 * own and are skipped, as are icons and spacers under MIN_IMAGE_SIDE pixels. Images drawn inline
 * in content streams and inside patterns or annotation appearances are not looked for.
 */
import { createHash } from "node:crypto";
import * as mupdf from "mupdf";
import { isNamed } from "./object-kinds.ts";
import { copyPixels, encodePixels, MAX_PAGE_PIXELS } from "./render-page.ts";

/** Images smaller than this on either side (bullets, spacers, rules) are not worth a file. */
export const MIN_IMAGE_SIDE = 32;

export interface ExtractedImage {
  /** 1-based page where the image is first drawn. */
  readonly page: number;
  readonly jpeg: Uint8Array;
  /** The file is the PDF's own JPEG stream, byte for byte. */
  readonly original: boolean;
}

export interface ExtractionCounts {
  readonly small: number;
  readonly duplicates: number;
  readonly tooLarge: number;
  readonly unreadable: number;
}

/** Colour spaces whose 8-bit DCT streams browsers and viewers show exactly as the PDF does. */
const DIRECT_COLOUR_SPACES = new Set(["DeviceGray", "DeviceRGB", "CalGray", "CalRGB", "G", "RGB"]);

/** Extracts the images of every page of `doc`; `progress` hears of each page done. */
export async function extractImages(
  doc: mupdf.PDFDocument,
  progress: (pagesDone: number) => void,
): Promise<{ images: ExtractedImage[]; counts: ExtractionCounts }> {
  const seenObjects = new Set<number>();
  const seenContent = new Set<string>();
  const masks = new Set<number>();
  const images: ExtractedImage[] = [];
  let small = 0;
  let duplicates = 0;
  let tooLarge = 0;
  let unreadable = 0;
  const pages = doc.countPages();
  for (let index = 0; index < pages; index++) {
    for (const image of pageImages(doc, index, masks)) {
      const number = image.asIndirect();
      if (seenObjects.has(number)) continue;
      seenObjects.add(number);
      if (masks.has(number) || image.get("ImageMask").asBoolean()) continue;
      const width = image.get("Width").asNumber();
      const height = image.get("Height").asNumber();
      if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
        small++;
        continue;
      }
      const stream = image.readRawStream();
      // Copied out of WASM memory, which later allocations may move.
      const raw = stream.asUint8Array().slice();
      stream.destroy();
      // The same picture stored once per page by some producers: one file is enough.
      const digest = createHash("sha256").update(raw).update(image.get("Filter").toString()).digest("hex");
      if (seenContent.has(digest)) {
        duplicates++;
        continue;
      }
      seenContent.add(digest);
      if (isDirectJpeg(image)) {
        images.push({ page: index + 1, jpeg: raw, original: true });
        continue;
      }
      if (width * height > MAX_PAGE_PIXELS) {
        tooLarge++;
        continue;
      }
      const jpeg = await decodeToJpeg(doc, image);
      if (jpeg === null) unreadable++;
      else images.push({ page: index + 1, jpeg, original: false });
    }
    progress(index + 1);
  }
  return { images, counts: { small, duplicates, tooLarge, unreadable } };
}

/**
 * The image XObjects page `index` draws, through its form XObjects too, in resource order. The
 * masks they name are added to `masks`, so a mask also listed as a resource is not extracted.
 */
function pageImages(doc: mupdf.PDFDocument, index: number, masks: Set<number>): mupdf.PDFObject[] {
  const found: mupdf.PDFObject[] = [];
  const visitedForms = new Set<number>();
  const visit = (resources: mupdf.PDFObject) => {
    const xobjects = resources.get("XObject");
    if (!xobjects.isDictionary()) return;
    xobjects.forEach((xobject) => {
      if (!xobject.isIndirect() || !xobject.isStream()) return;
      const subtype = xobject.get("Subtype").asName();
      if (subtype === "Image") {
        for (const key of ["SMask", "Mask"]) {
          const mask = xobject.get(key);
          if (mask.isIndirect()) masks.add(mask.asIndirect());
        }
        found.push(xobject);
      } else if (subtype === "Form" && !visitedForms.has(xobject.asIndirect())) {
        visitedForms.add(xobject.asIndirect());
        visit(xobject.get("Resources"));
      }
    });
  };
  const page = doc.loadPage(index);
  try {
    visit(page.getObject().getInheritable("Resources"));
  } finally {
    page.destroy();
  }
  return found;
}

/** A DCT stream whose bytes are, as a .jpg file, the picture the PDF shows. */
function isDirectJpeg(image: mupdf.PDFObject): boolean {
  const filter = image.get("Filter");
  const only = filter.isArray() ? (filter.length === 1 ? filter.get(0) : mupdf.PDFObject.Null) : filter;
  if (!only.isName() || !["DCTDecode", "DCT"].includes(only.asName())) return false;
  if (!image.get("Decode").isNull()) return false;
  const bits = image.get("BitsPerComponent");
  if (!bits.isNull() && bits.asNumber() !== 8) return false;
  const space = image.get("ColorSpace");
  const family = space.isArray() ? space.get(0) : space;
  if (family.isName() && DIRECT_COLOUR_SPACES.has(family.asName())) return true;
  // An ICC-based space of 1 or 3 components: the JPEG is grey or RGB; the profile is not carried.
  if (isNamed(family, "ICCBased")) {
    // Path form: a missing profile gives the Null object, whose own `get` would throw a TypeError.
    const components = space.get(1, "N").asNumber();
    return components === 1 || components === 3;
  }
  return false;
}

/**
 * Decodes an image with MuPDF (colour space, Decode and palette applied) and encodes it as JPEG;
 * null when the image cannot be decoded.
 */
async function decodeToJpeg(doc: mupdf.PDFDocument, object: mupdf.PDFObject): Promise<Uint8Array | null> {
  let image: mupdf.Image | undefined;
  let decoded: mupdf.Pixmap | undefined;
  let converted: mupdf.Pixmap | undefined;
  try {
    image = doc.loadImage(object);
    decoded = image.toPixmap();
    const grey = decoded.getColorSpace()?.isGray() === true;
    const target = grey ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB;
    const sameSpace = grey || decoded.getColorSpace()?.isRGB() === true;
    const pixmap = sameSpace && !decoded.getAlpha() ? decoded : decoded.convertToColorSpace(target, false);
    if (pixmap !== decoded) converted = pixmap;
    const size = { width: pixmap.getWidth(), height: pixmap.getHeight(), channels: grey ? 1 : 3 } as const;
    return await encodePixels(copyPixels(pixmap), size);
  } catch {
    // A damaged image stream: the other images are still worth having.
    return null;
  } finally {
    converted?.destroy();
    decoded?.destroy();
    image?.destroy();
  }
}
