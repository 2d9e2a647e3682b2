/**
 * Add a text watermark with MuPDF.js: the text is set once with shaping and real text
 * (engines/pdf/stamp-text.ts) and drawn as one form XObject, at a place of the displayed page or
 * tiled over it, turned and with the chosen opacity (engines/pdf/stamp-place.ts).
 */
import type { z } from "zod";
import { AppError } from "../../contract/index.ts";
import { editPdf } from "../../engines/pdf/edit-pdf.ts";
import { pagesToStamp } from "../../engines/pdf/page-selection.ts";
import {
  drawStamps,
  type PageFrame,
  pageFrame,
  placeForm,
  type Stamp,
} from "../../engines/pdf/stamp-place.ts";
import { type TextForm, textForms } from "../../engines/pdf/stamp-text.ts";
import type { EngineHandler } from "../../engines/types.ts";
import type tool from "./tool.ts";

type Options = z.output<(typeof tool)["options"]>;

/** Space between tiles, in font sizes. */
const TILE_GAP = 2.5;

/** Degrees anticlockwise for a page: the given angle, or its diagonal. */
export function watermarkAngle(
  rotation: Options["rotation"],
  frame: { width: number; height: number },
): number {
  return rotation === "diagonal" ? (Math.atan2(frame.height, frame.width) * 180) / Math.PI : rotation;
}

/**
 * The watermark's stamps on one page. Text turned by a quarter is read back by extractors as it
 * is; at any other angle the visible text is silent and an invisible upright copy at the same
 * centre carries the text (see TextForm.silent).
 */
function stampsFor(frame: PageFrame, form: TextForm, options: Options): Stamp[] {
  const degrees = watermarkAngle(options.rotation, frame);
  const centres = centresOf(frame, form, options, degrees);
  const upright = Math.abs(degrees % 90) < 0.01;
  return centres.flatMap(([x, y]) =>
    upright
      ? [{ form: form.form, matrix: placeForm(frame, form, x, y, degrees) }]
      : [
          { form: form.silent, matrix: placeForm(frame, form, x, y, degrees) },
          { form: form.form, matrix: placeForm(frame, form, x, y, 0), invisible: true },
        ],
  );
}

/** Where the watermark's centres go on one page (one, or a brick pattern when tiled). */
function centresOf(frame: PageFrame, form: TextForm, options: Options, degrees: number): [number, number][] {
  const radians = (degrees * Math.PI) / 180;
  // The turned text's bounding box, to keep a corner placement inside the page.
  const boxWidth = Math.abs(form.width * Math.cos(radians)) + Math.abs(form.height * Math.sin(radians));
  const boxHeight = Math.abs(form.width * Math.sin(radians)) + Math.abs(form.height * Math.cos(radians));
  const margin = options.size / 2;
  const [vertical, horizontal] = options.position.split("-");
  if (options.position === "center") return [[frame.width / 2, frame.height / 2]];
  if (options.position !== "tiled") {
    const x = horizontal === "left" ? margin + boxWidth / 2 : frame.width - margin - boxWidth / 2;
    const y = vertical === "top" ? margin + boxHeight / 2 : frame.height - margin - boxHeight / 2;
    return [[x, y]];
  }
  const stepX = boxWidth + TILE_GAP * options.size;
  const stepY = boxHeight + TILE_GAP * options.size;
  const centres: [number, number][] = [];
  for (let row = 0, y = stepY / 2; y - boxHeight / 2 < frame.height; row++, y += stepY) {
    // Every other row is shifted by half a step, so the tiles fall in a brick pattern.
    const shift = row % 2 === 0 ? 0 : stepX / 2;
    for (let x = stepX / 2 - shift; x - boxWidth / 2 < frame.width; x += stepX) centres.push([x, y]);
  }
  return centres;
}

export const addWatermark: EngineHandler<Options> = (inputs, options, progress) =>
  editPdf(inputs, "watermark", progress, async (doc) => {
    if (options.text === undefined) {
      throw new AppError("INVALID_OPTIONS", "A watermark needs its text.", {
        watermark_error: "textRequired",
      });
    }
    const pages = pagesToStamp(options.pages, doc.countPages());
    const [form] = await textForms(doc, [options.text], {
      size: options.size,
      color: options.color,
      bold: true,
    });
    if (form === undefined) throw new Error("The watermark text was not laid out.");
    progress(20);
    for (const [k, index] of pages.entries()) {
      const frame = pageFrame(doc, index);
      drawStamps(doc, index, stampsFor(frame, form, options), {
        opacity: options.opacity,
        under: options.layer === "under",
      });
      progress(20 + Math.round(((k + 1) / pages.length) * 70));
    }
    return { watermarked_pages: pages.length };
  });
