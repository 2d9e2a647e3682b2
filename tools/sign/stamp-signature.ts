/**
 * Sign PDF with MuPDF.js: each placed image (signature, initials, date; PNG transparency kept as a
 * soft mask) is added once and drawn on its pages as they are seen (crop box, rotation), over the
 * page's content (engines/pdf/stamp-place.ts). Text stays text, links, forms and every page that is
 * not placed on stay as they were.
 */
import * as mupdf from "mupdf";
import type { z } from "zod";
import { AppError } from "../../contract/index.ts";
import { editPdf } from "../../engines/pdf/edit-pdf.ts";
import { drawStamps, type PageFrame, pageFrame, type Stamp } from "../../engines/pdf/stamp-place.ts";
import type { EngineHandler, ExtraInputs } from "../../engines/types.ts";
import type tool from "./tool.ts";
import type { SignImage, SignPlacement } from "./tool.ts";

type Options = z.output<(typeof tool)["options"]>;

/** Room for rounding between the page the client measured and the one MuPDF reports. */
const TOLERANCE = 0.002;

/** An INVALID_OPTIONS the sign screen names (`sign_error`), with the values its message shows. */
function signError(message: string, key: string, values: Record<string, number | string> = {}): AppError {
  return new AppError("INVALID_OPTIONS", message, { sign_error: key, ...values });
}

/** The placements of a request: its `placements`, or the one of its page/x/y/width fields. */
export function placementsOf(options: Options): readonly SignPlacement[] {
  if (options.placements !== undefined) return options.placements;
  const { page, x, y, width } = options;
  if (page === undefined || x === undefined || y === undefined || width === undefined) {
    throw signError("A placement needs page, x, y and width (or placements).", "no_placement");
  }
  return [{ image: "signature", page, x, y, width }];
}

/**
 * The matrix that draws an image's unit square in the box of `placement` on the page as seen
 * (y down from the top left): its width the placement's fraction of the page's, its height
 * following the image's `aspect` (height / width). A box that runs off the bottom of a page is
 * refused for a page the user chose, and moved up to fit for "every page" (pages differ in size).
 */
function placementMatrix(
  frame: PageFrame,
  placement: SignPlacement,
  aspect: number,
  pageNumber: number,
): mupdf.Matrix {
  const width = placement.width * frame.width;
  const height = width * aspect;
  const left = placement.x * frame.width;
  let top = placement.y * frame.height;
  if (top + height > frame.height * (1 + TOLERANCE)) {
    if (placement.page !== "all") {
      throw signError("The signature runs off the bottom of the page.", "outside_page", { page: pageNumber });
    }
    top = Math.max(0, frame.height - height);
  }
  const unitToSeen: mupdf.Matrix = [width, 0, 0, -height, left, top + height];
  return mupdf.Matrix.concat(unitToSeen, frame.toPdf);
}

/** The images the placements use, each added to the document once. */
function addImages(
  doc: mupdf.PDFDocument,
  extras: ExtraInputs,
  placements: readonly SignPlacement[],
): Map<SignImage, { object: mupdf.PDFObject; aspect: number }> {
  const images = new Map<SignImage, { object: mupdf.PDFObject; aspect: number }>();
  for (const name of new Set(placements.map((placement) => placement.image))) {
    const file = extras[name];
    if (file === undefined)
      throw signError(`No ${name} image was uploaded.`, "image_missing", { image: name });
    let image: mupdf.Image;
    try {
      image = new mupdf.Image(file.bytes);
    } catch {
      throw new AppError("IMAGE_DAMAGED", `The ${name} image cannot be read.`, { field: name });
    }
    try {
      images.set(name, { object: doc.addImage(image), aspect: image.getHeight() / image.getWidth() });
    } finally {
      image.destroy();
    }
  }
  return images;
}

/** Stamps the request's images at their placements (see tool.ts). */
export const stampSignature: EngineHandler<Options> = (inputs, options, progress, extras = {}) =>
  editPdf(inputs, "signature", progress, async (doc) => {
    const placements = placementsOf(options);
    const pages = doc.countPages();
    const outside = placements.find((placement) => placement.page !== "all" && placement.page > pages);
    if (outside !== undefined) {
      throw signError("A signature is placed on a page the PDF does not have.", "page_out_of_range", {
        page: Number(outside.page),
        pages,
      });
    }
    const images = addImages(doc, extras, placements);
    progress(20);
    const byPage = new Map<number, SignPlacement[]>();
    for (const placement of placements) {
      const targets = placement.page === "all" ? [...Array(pages).keys()] : [placement.page - 1];
      for (const index of targets) byPage.set(index, [...(byPage.get(index) ?? []), placement]);
    }
    let done = 0;
    for (const [index, list] of [...byPage].sort(([a], [b]) => a - b)) {
      const frame = pageFrame(doc, index);
      const stamps: Stamp[] = list.map((placement) => {
        const image = images.get(placement.image) as { object: mupdf.PDFObject; aspect: number };
        return { form: image.object, matrix: placementMatrix(frame, placement, image.aspect, index + 1) };
      });
      drawStamps(doc, index, stamps, { opacity: 1, under: false });
      progress(20 + Math.round((++done / byPage.size) * 70));
    }
    return { signed_pages: byPage.size, placements: placements.length };
  });
