import * as mupdf from "mupdf";
import { AppError } from "../../contract/index.ts";
import { openPdf } from "../../engines/pdf/open-pdf.ts";
import { asPdfJobError, savePdf } from "../../engines/pdf/write-pdf.ts";

/**
 * Where a signature goes (issue 27's API): a 1-based page, and the signature's top-left corner and
 * width as fractions of the page's visible width and height (its height follows from the image).
 */
export interface SignaturePlacement {
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
}

/**
 * The content of one placement: the image drawn in the given box, isolated by q/Q so the page's
 * own graphics state cannot leak into it. `matrix` maps the image's unit square to user space.
 */
function drawing(name: string, matrix: mupdf.Matrix): string {
  const numbers = matrix.map((value) => Number(value.toFixed(4))).join(" ");
  return `q ${numbers} cm /${name} Do Q\n`;
}

/**
 * The unit square of the image on the page, in user space: the box is given on the page as it is
 * seen (crop box, rotation), where y grows downwards; the page's transform maps user space there.
 */
function placementMatrix(page: mupdf.PDFPage, placement: SignaturePlacement, aspect: number): mupdf.Matrix {
  const [x0, y0, x1, y1] = page.getBounds();
  const width = placement.width * (x1 - x0);
  const height = width * aspect;
  const left = x0 + placement.x * (x1 - x0);
  const top = y0 + placement.y * (y1 - y0);
  const unitToSeen: mupdf.Matrix = [width, 0, 0, -height, left, top + height];
  return mupdf.Matrix.concat(unitToSeen, mupdf.Matrix.invert(page.getTransform()));
}

/** A new direct dictionary with the entries of `source` (none when it is null). */
function shallowCopy(pdf: mupdf.PDFDocument, source: mupdf.PDFObject): mupdf.PDFObject {
  const copy = pdf.newDictionary();
  if (source.isNull()) return copy;
  const resolved = source.resolve();
  if (!resolved.isDictionary()) return copy;
  resolved.forEach((value, key) => {
    copy.put(key, value);
  });
  return copy;
}

/** A resource name not yet used among the page's XObjects. */
function freeName(xobjects: mupdf.PDFObject): string {
  for (let index = 1; ; index++) {
    const name = `Signature${index}`;
    if (xobjects.get(name).isNull()) return name;
  }
}

/**
 * Stamps a signature image (PNG, transparency kept as a soft mask) onto the placed pages: each page
 * gets the image as an XObject and one more content stream that draws it; everything else on the
 * page and every other page stays as it was (text stays text, links and forms untouched).
 */
export function stampSignature(
  pdfBytes: Uint8Array,
  signature: Uint8Array,
  placements: readonly SignaturePlacement[],
): { bytes: Uint8Array; pages: number } {
  const pdf = openPdf(pdfBytes, 0);
  try {
    const pages = pdf.countPages();
    const outside = placements.find((placement) => placement.page < 1 || placement.page > pages);
    if (outside !== undefined) {
      throw new AppError("INVALID_OPTIONS", "A signature is placed on a page the PDF does not have.", {
        page: outside.page,
        pages,
      });
    }
    let image: mupdf.Image;
    try {
      image = new mupdf.Image(signature);
    } catch {
      throw new AppError("IMAGE_DAMAGED", "The signature image cannot be read.", { file_index: 1 });
    }
    const aspect = image.getHeight() / image.getWidth();
    const reference = pdf.addImage(image);
    for (const placement of placements) {
      const page = pdf.loadPage(placement.page - 1);
      const object = page.getObject();
      const resources = object.getInheritable("Resources");
      // Copies: resources shared with other pages (inherited, or one object) stay as they were.
      const own = shallowCopy(pdf, resources);
      const xobjects = shallowCopy(pdf, own.get("XObject"));
      const name = freeName(xobjects);
      xobjects.put(name, reference);
      own.put("XObject", xobjects);
      object.put("Resources", own);
      const contents = object.get("Contents");
      const existing = contents.isArray()
        ? Array.from({ length: contents.length }, (_, i) => contents.get(i))
        : contents.isNull()
          ? []
          : [contents];
      const before = pdf.addStream("q\n", {});
      const after = pdf.addStream(`Q\n${drawing(name, placementMatrix(page, placement, aspect))}`, {});
      object.put("Contents", [before, ...existing, after]);
    }
    return { bytes: savePdf(pdf, "compress"), pages };
  } catch (error) {
    throw asPdfJobError(error, "signature", { file_index: 0 });
  } finally {
    pdf.destroy();
  }
}
