/**
 * An image to recognise as a PDF of its own: one page per image (every page of a multi-page TIFF),
 * each page exactly the image's size at its resolution, the image embedded as losslessly as its
 * format allows (a JPEG byte for byte; engines/pdf/images-to-pdf-image.ts) and shown upright.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { ImageEmbedder } from "../../engines/pdf/images-to-pdf-image.ts";
import { drawImageContent, orientedMatrix } from "../../engines/pdf/images-to-pdf-layout.ts";

/**
 * Resolution assumed when the image states none or an implausible one for a scan (phone photos
 * say 72 dpi): the page then has the size of a 300 dpi scan, and recognition reads the image's
 * own pixels either way.
 */
const ASSUMED_DPI = 300;
const MIN_STATED_DPI = 150;
const MAX_STATED_DPI = 1200;

/** A new PDF document holding the image's pages. */
export async function imageDocument(bytes: Uint8Array): Promise<mupdf.PDFDocument> {
  const doc = new mupdf.PDFDocument();
  try {
    // libvips reads no BMP (nor HEVC pictures' every header): those keep the assumed resolution,
    // and ImageEmbedder decodes them with its own decoders.
    const density = await sharp(bytes)
      .metadata()
      .then(
        (metadata) => metadata.density,
        () => undefined,
      );
    const dpi = statedResolution(density);
    for (const image of await new ImageEmbedder(doc).embed(bytes, 0)) {
      const turned = image.orientation >= 5;
      const width = ((turned ? image.height : image.width) * 72) / dpi;
      const height = ((turned ? image.width : image.height) * 72) / dpi;
      const matrix = orientedMatrix({ x: 0, y: 0, width, height }, image.orientation);
      const page = doc.addPage(
        [0, 0, width, height],
        0,
        { XObject: { Im0: image.ref } },
        drawImageContent("Im0", matrix),
      );
      doc.insertPage(-1, page);
    }
    return doc;
  } catch (error) {
    doc.destroy();
    throw error;
  }
}

function statedResolution(density: number | undefined): number {
  if (density === undefined || density < MIN_STATED_DPI || density > MAX_STATED_DPI) return ASSUMED_DPI;
  return density;
}
