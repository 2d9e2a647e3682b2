import { z } from "zod";
import { AVAILABLE, CONTAINER, declareTool, options, pdfInput } from "../../contract/tool-kit.ts";

/** Where the numbers go on the displayed page. */
export const NUMBER_POSITIONS = [
  "top-left",
  "top-center",
  "top-right",
  "bottom-left",
  "bottom-center",
  "bottom-right",
] as const;

/** `1`, `1 / N`, or `Page 1 of N` in the words of `language`. */
export const NUMBER_FORMATS = ["number", "number-of-total", "page-of-total"] as const;

/** The digits numbers are written with. */
export const NUMBER_DIGITS = ["latin", "devanagari", "telugu", "tamil"] as const;

/** The languages whose words `page-of-total` has (the site's seven). */
export const NUMBER_LANGUAGES = ["en", "es", "de", "fr", "hi", "te", "ta"] as const;

/**
 * Add page numbers: each page of a range (all by default) gets its number as real text in one of
 * six places, from a first number, in Latin, Devanagari, Telugu or Tamil digits.
 */
export default declareTool({
  id: "page-numbers",
  category: "pdf",
  order: 13,
  icon: "document",
  ...AVAILABLE,
  input: pdfInput(1),
  options: z.object({
    position: z.enum(NUMBER_POSITIONS).default("bottom-center"),
    start: z.coerce.number().int().min(0).max(1_000_000).default(1),
    pages: options.pageRanges(),
    format: z.enum(NUMBER_FORMATS).default("number"),
    digits: z.enum(NUMBER_DIGITS).default("latin"),
    language: z.enum(NUMBER_LANGUAGES).default("en"),
    /** Font size in points. */
    size: z.coerce.number().min(6).max(72).default(11),
    /** Distance from the page's edges in points. */
    margin: z.coerce.number().min(0).max(144).default(28),
  }),
  output: { kind: "pdf", suffix: "-numbered" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/page-numbers", fileField: "file", fields: {} },
});
