/**
 * Add a watermark with MuPDF.js: a line of text, set once with shaping and real text
 * (engines/pdf/stamp-text.ts), or an uploaded image (PNG with its transparency as a soft mask,
 * JPEG, WebP: engines/pdf/images-to-pdf-image.ts), drawn as one form XObject at a place of the
 * displayed page or tiled over it, turned and with the chosen opacity (engines/pdf/stamp-place.ts).
 */
import type * as mupdf from "mupdf";
import type { z } from "zod";
import { AppError } from "../../contract/index.ts";
import { editPdf } from "../../engines/pdf/edit-pdf.ts";
import { ImageEmbedder } from "../../engines/pdf/images-to-pdf-image.ts";
import { orientedMatrix, roundedPdfNumber } from "../../engines/pdf/images-to-pdf-layout.ts";
import { pagesToStamp } from "../../engines/pdf/page-selection.ts";
import {
  drawStamps,
  type PageFrame,
  pageFrame,
  placeForm,
  type Stamp,
} from "../../engines/pdf/stamp-place.ts";
import { type TextForm, textForms } from "../../engines/pdf/stamp-text.ts";
import type { EngineHandler, EngineInput } from "../../engines/types.ts";
import type tool from "./tool.ts";

type Options = z.output<(typeof tool)["options"]>;

/** Space between tiles, in font sizes (text) or image units. */
const TILE_GAP = 2.5;

/** An image watermark's unit (margin, tile gaps) as a share of the page's shorter side. */
const IMAGE_UNIT = 0.04;

/** Degrees anticlockwise for a page: the given angle, or its diagonal. */
export function watermarkAngle(
  rotation: Options["rotation"],
  frame: { width: number; height: number },
): number {
  return rotation === "diagonal" ? (Math.atan2(frame.height, frame.width) * 180) / Math.PI : rotation;
}

/** What a watermark draws: a text line (TextForm) or an image as a form of its displayed size. */
type Mark =
  | { readonly kind: "text"; readonly text: TextForm }
  | {
      readonly kind: "image";
      readonly form: mupdf.PDFObject;
      readonly width: number;
      readonly height: number;
    };

/**
 * The scale of the mark on a page, and the length that sets its margin and the gaps between tiles:
 * the font size for text; for an image, its width is `image_size` % of the page's width.
 */
function markScale(frame: PageFrame, mark: Mark, options: Options): { scale: number; unit: number } {
  if (mark.kind === "text") return { scale: 1, unit: options.size };
  return {
    scale: (frame.width * options.image_size) / 100 / mark.width,
    unit: IMAGE_UNIT * Math.min(frame.width, frame.height),
  };
}

/**
 * The watermark's stamps on one page. Text turned by a quarter is read back by extractors as it
 * is; at any other angle the visible text is silent and an invisible upright copy at the same
 * centre carries the text (see TextForm.silent). An image is drawn turned as it is.
 */
function stampsFor(frame: PageFrame, mark: Mark, options: Options): Stamp[] {
  const degrees = watermarkAngle(options.rotation, frame);
  const { scale: chosen, unit } = markScale(frame, mark, options);
  const box = mark.kind === "text" ? mark.text : mark;
  const scale = chosen * fitFactor(frame, box, chosen, degrees, unit / 2, mark.kind === "text");
  const centres = centresOf(
    frame,
    { width: box.width * scale, height: box.height * scale },
    options,
    degrees,
    unit,
  );
  if (mark.kind === "image") {
    return centres.map(([x, y]) => ({
      form: mark.form,
      matrix: placeForm(frame, mark, x, y, degrees, scale),
    }));
  }
  const form = mark.text;
  const upright = Math.abs(degrees % 90) < 0.01;
  return centres.flatMap(([x, y]) =>
    upright
      ? [{ form: form.form, matrix: placeForm(frame, form, x, y, degrees, scale) }]
      : [
          { form: form.silent, matrix: placeForm(frame, form, x, y, degrees, scale) },
          { form: form.form, matrix: placeForm(frame, form, x, y, 0, scale), invisible: true },
        ],
  );
}

/** The bounding box of a `width` × `height` box turned by `degrees`. */
function turnedBox(width: number, height: number, degrees: number): { width: number; height: number } {
  const radians = (degrees * Math.PI) / 180;
  return {
    width: Math.abs(width * Math.cos(radians)) + Math.abs(height * Math.sin(radians)),
    height: Math.abs(width * Math.sin(radians)) + Math.abs(height * Math.cos(radians)),
  };
}

/**
 * How much a mark must shrink to fit inside the page's margins, turned (and, for text, upright too:
 * its invisible copy carries the text, and extractors drop what lies off the page). 1 when it fits:
 * a 60 pt word is wider than a 100 pt page (wide corpus: issue11124.pdf lost its first letter).
 */
function fitFactor(
  frame: PageFrame,
  box: { readonly width: number; readonly height: number },
  scale: number,
  degrees: number,
  margin: number,
  upright: boolean,
): number {
  const room = {
    width: Math.max(1, frame.width - 2 * margin),
    height: Math.max(1, frame.height - 2 * margin),
  };
  const boxes = [turnedBox(box.width * scale, box.height * scale, degrees)];
  if (upright) boxes.push({ width: box.width * scale, height: box.height * scale });
  return Math.min(1, ...boxes.flatMap((b) => [room.width / b.width, room.height / b.height]));
}

/**
 * Where the watermark's centres go on one page (one, or a brick pattern when tiled), for a mark of
 * `box` (as drawn, before turning); `unit` sets the margin (half of it) and the gaps between tiles.
 */
function centresOf(
  frame: PageFrame,
  box: { readonly width: number; readonly height: number },
  options: Options,
  degrees: number,
  unit: number,
): [number, number][] {
  // The turned mark's bounding box, to keep a corner placement inside the page.
  const { width: boxWidth, height: boxHeight } = turnedBox(box.width, box.height, degrees);
  const margin = unit / 2;
  const [vertical, horizontal] = options.position.split("-");
  if (options.position === "center") return [[frame.width / 2, frame.height / 2]];
  if (options.position !== "tiled") {
    const x = horizontal === "left" ? margin + boxWidth / 2 : frame.width - margin - boxWidth / 2;
    const y = vertical === "top" ? margin + boxHeight / 2 : frame.height - margin - boxHeight / 2;
    return [[x, y]];
  }
  const stepX = boxWidth + TILE_GAP * unit;
  const stepY = boxHeight + TILE_GAP * unit;
  const centres: [number, number][] = [];
  for (let row = 0, y = stepY / 2; y - boxHeight / 2 < frame.height; row++, y += stepY) {
    // Every other row is shifted by half a step, so the tiles fall in a brick pattern.
    const shift = row % 2 === 0 ? 0 : stepX / 2;
    for (let x = stepX / 2 - shift; x - boxWidth / 2 < frame.width; x += stepX) centres.push([x, y]);
  }
  return centres;
}

/** The image as a form XObject of `doc` whose box is its displayed size in pixels (EXIF orientation applied). */
async function imageMark(doc: mupdf.PDFDocument, image: EngineInput): Promise<Mark> {
  const [embedded] = await new ImageEmbedder(doc).embed(image.bytes, 0).catch((error: unknown) => {
    // Named by its field, as the upload names an extra file (file_index counts the PDFs).
    if (!(error instanceof AppError)) throw error;
    const { file_index: _, ...context } = error.context ?? {};
    throw new AppError(error.code, error.message, { ...context, field: "image" }, error.detail);
  });
  if (embedded === undefined) throw new Error("The watermark image gave no picture.");
  const turned = embedded.orientation >= 5;
  const width = turned ? embedded.height : embedded.width;
  const height = turned ? embedded.width : embedded.height;
  const matrix = orientedMatrix({ x: 0, y: 0, width, height }, embedded.orientation)
    .map(roundedPdfNumber)
    .join(" ");
  const form = doc.addStream(`q ${matrix} cm /Im1 Do Q\n`, {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, width, height],
    Resources: { XObject: { Im1: embedded.ref } },
  });
  return { kind: "image", form, width, height };
}

/** The mark a request asks for: its text or its image (the `image` file field), never both. */
async function markOf(
  doc: mupdf.PDFDocument,
  options: Options,
  image: EngineInput | undefined,
): Promise<Mark> {
  if (image !== undefined && options.text !== undefined) {
    throw new AppError("INVALID_OPTIONS", "A watermark is a text or an image, not both.", {
      watermark_error: "textOrImage",
    });
  }
  if (image !== undefined) return imageMark(doc, image);
  if (options.text === undefined) {
    throw new AppError("INVALID_OPTIONS", "A watermark needs its text or an image.", {
      watermark_error: "textRequired",
    });
  }
  const [text] = await textForms(doc, [options.text], {
    size: options.size,
    color: options.color,
    bold: true,
  });
  if (text === undefined) throw new Error("The watermark text was not laid out.");
  return { kind: "text", text };
}

/** Adds the watermark; `extras.image` is the uploaded image of an image watermark. */
export const addWatermark: EngineHandler<Options> = (inputs, options, progress, extras = {}) =>
  editPdf(inputs, "watermark", progress, async (doc) => {
    const mark = await markOf(doc, options, extras.image);
    const pages = pagesToStamp(options.pages, doc.countPages());
    progress(20);
    for (const [k, index] of pages.entries()) {
      const frame = pageFrame(doc, index);
      drawStamps(doc, index, stampsFor(frame, mark, options), {
        opacity: options.opacity,
        under: options.layer === "under",
      });
      progress(20 + Math.round(((k + 1) / pages.length) * 70));
    }
    return { watermarked_pages: pages.length, watermark: mark.kind };
  });
