/**
 * Add page numbers with MuPDF.js: every label is set once with shaping and real text
 * (engines/pdf/stamp-text.ts) and drawn on its page as seen (engines/pdf/stamp-place.ts): the
 * page's rotation and crop box decide where "bottom right" is. Nothing else on the page changes.
 */
import type { z } from "zod";
import { editPdf } from "../../engines/pdf/edit-pdf.ts";
import { pagesToStamp } from "../../engines/pdf/page-selection.ts";
import { drawStamps, pageFrame, placeForm } from "../../engines/pdf/stamp-place.ts";
import { textForms } from "../../engines/pdf/stamp-text.ts";
import type { EngineHandler } from "../../engines/types.ts";
import { pageLabel } from "./page-label.ts";
import type tool from "./tool.ts";

type Options = z.output<(typeof tool)["options"]>;

export const addPageNumbers: EngineHandler<Options> = (inputs, options, progress) =>
  editPdf(inputs, "number", progress, async (doc) => {
    const pages = pagesToStamp(options.pages, doc.countPages());
    const total = options.start + pages.length - 1;
    const labels = pages.map((_, k) => pageLabel(options.start + k, total, options));
    const forms = await textForms(doc, labels, { size: options.size, color: "#000000" });
    progress(40);
    const [vertical, horizontal] = options.position.split("-");
    for (const [k, index] of pages.entries()) {
      const form = forms[k];
      if (form === undefined) continue;
      const frame = pageFrame(doc, index);
      const margin = Math.min(options.margin, frame.width / 4, frame.height / 4);
      // On a page smaller than the label and its margins the label shrinks to fit, else it would
      // fall off the page (and out of what viewers and extractors show).
      const scale = Math.min(
        1,
        (frame.width - 2 * margin) / form.width,
        (frame.height - 2 * margin) / form.height,
      );
      const width = form.width * scale;
      const height = form.height * scale;
      const x =
        horizontal === "left"
          ? margin + width / 2
          : horizontal === "right"
            ? frame.width - margin - width / 2
            : frame.width / 2;
      const y = vertical === "top" ? margin + height / 2 : frame.height - margin - height / 2;
      drawStamps(doc, index, [{ form: form.form, matrix: placeForm(frame, form, x, y, 0, scale) }], {
        opacity: 1,
        under: false,
      });
      progress(40 + Math.round(((k + 1) / pages.length) * 50));
    }
    return { numbered_pages: pages.length };
  });
