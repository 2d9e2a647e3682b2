import { z } from "zod";
import {
  CONTAINER,
  CONTAINER_IMAGE_KINDS,
  declareTool,
  MAX_IMAGE_PIXELS,
  options,
} from "../../contract/tool-kit.ts";

const MB = 1024 * 1024;

/** Pages one OCR job takes (a PDF's, or a multi-page TIFF's). */
export const MAX_OCR_PAGES = 40;

/**
 * Converter time per page of an OCR job (its limit is this per page when that is over the base
 * 120 s: 360 s for 30 pages, 480 s for 40). A page costs about 0.5 CPU s of Tesseract at 200 dpi
 * (bench:ocr) and a few at 300 dpi; a 30-page scan at load 51 on 2 cores (a job getting ~0.15 of
 * a core) ran 122 s for 18.5 CPU s, past the old fixed limit.
 */
const OCR_MS_PER_PAGE = 12_000;

/**
 * PDF OCR: a scanned PDF (or a photo or scan as an image: every page of a multi-page TIFF) becomes
 * a searchable PDF, each page as it was with an invisible text layer word by word. `languages` are
 * site language codes, comma-separated; without any, each page's script is detected. Pages that
 * already have text are kept unless `redo_text`. A premium feature (spec §6), open to everyone.
 */
export default declareTool({
  id: "ocr",
  category: "pdf",
  order: 9,
  icon: "ocr",
  available: true,
  comingSoon: false,
  premium: true,
  input: {
    kinds: ["pdf", "jpeg", "png", "webp", ...CONTAINER_IMAGE_KINDS],
    maxFiles: 1,
    maxFileBytes: 100 * MB,
    maxTotalBytes: 100 * MB,
    maxPixels: MAX_IMAGE_PIXELS,
    maxPages: MAX_OCR_PAGES,
  },
  options: z.object({
    languages: options.languageList(),
    redo_text: options.flag(),
  }),
  output: { kind: "pdf", suffix: "-ocr" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/ocr", fileField: "file", fields: {} },
  jobTime: { perPageMs: OCR_MS_PER_PAGE },
});
