/**
 * Images to PDF: one A4 page per image, in the order the images were given (the order on the
 * user's screen), each image fitted inside the chosen margins and centred (images-to-pdf-layout.ts),
 * embedded as losslessly as its format allows (images-to-pdf-image.ts).
 */
import * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { ImageEmbedder } from "./images-to-pdf-image.ts";
import {
  drawImageContent,
  type MarginChoice,
  type PageOrientation,
  placeImage,
} from "./images-to-pdf-layout.ts";
import { isOutOfMemory } from "./open-pdf.ts";

export interface ImagesToPdfOptions {
  readonly margin: MarginChoice;
  readonly orientation: PageOrientation;
}

/** Share of the progress scale spent placing images; the rest is the final save. */
const PLACE_PROGRESS = 95;

/**
 * Image streams are already compressed (DCT or Flate with the PNG predictor) and are written as
 * they are; `compress` deflates the small content streams and ICC profiles.
 */
const SAVE_OPTIONS = "compress,garbage=compact";

/** Facts: pages (a multi-page TIFF adds one per page), images (files), and first_frame_only (animated GIF/WebP inputs) when any was animated. */
export const imagesToPdf: EngineHandler<ImagesToPdfOptions> = async (inputs, options, progress) => {
  if (inputs.length === 0) throw new AppError("NO_FILE", "No image to put in a PDF.");
  const doc = new mupdf.PDFDocument();
  try {
    const embedder = new ImageEmbedder(doc);
    let animated = 0;
    for (const [fileIndex, input] of inputs.entries()) {
      for (const image of await embedder.embed(input.bytes, fileIndex)) {
        if (image.firstFrameOnly) animated++;
        const placement = placeImage(image, image.orientation, options);
        const page = doc.addPage(
          [0, 0, placement.pageWidth, placement.pageHeight],
          0,
          { XObject: { Im0: image.ref } },
          drawImageContent("Im0", placement.matrix),
        );
        doc.insertPage(-1, page);
      }
      progress(Math.round(((fileIndex + 1) / inputs.length) * PLACE_PROGRESS));
    }
    const facts: JobFacts = {
      pages: doc.countPages(),
      images: inputs.length,
      ...(animated > 0 ? { first_frame_only: animated } : {}),
    };
    const buffer = doc.saveToBuffer(SAVE_OPTIONS);
    // The buffer views WASM memory that is freed with it: copy out before destroying.
    const bytes = buffer.asUint8Array().slice();
    buffer.destroy();
    progress(100);
    return { bytes, facts };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    if (isOutOfMemory(error))
      throw new AppError("JOB_OUT_OF_MEMORY", "Building the PDF ran out of memory.", undefined, detail);
    throw new AppError("INTERNAL", "The PDF could not be built.", undefined, detail);
  } finally {
    doc.destroy();
  }
};
