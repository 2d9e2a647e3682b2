/**
 * Tiling patterns whose steps would make drawing a page explode, given sane steps for the draw.
 *
 * MuPDF draws a tiling pattern's cell once and paints it at every step over the filled area, so a
 * fill costs (cells per pixel) × (pixels per cell): the area's pixels × (cell size / step) on each
 * axis. A pattern without a step (XStep or YStep 0 or missing, which the PDF format forbids) is
 * stepped by 1 unit by MuPDF: a 225 × 161 cell then overlaps itself 36,000 times, and one such fill
 * took 21 CPU s at 300 dpi (a sub-pixel step does the same by its number of cells). Poppler and
 * PDF.js treat a missing step as an error and do not draw the pattern at all; PDF.js repeats a
 * zero-step cell as a canvas pattern, whose cost is bounded by the canvas; pdfium loops over cells.
 *
 * Here, for the draw only: a missing or zero step becomes the cell's size (the pattern tiles
 * without overlap), and a pattern that would paint more than MAX_TILE_OVERDRAW cells over each pixel
 * at the drawing's scale gets steps of at least its cell's size and one pixel. The document's
 * objects are put back as they were after the draw, so a document that is saved keeps its patterns.
 */
import type * as mupdf from "mupdf";
import { annotationsOf } from "./page-annotations.ts";

/**
 * Most cells a pattern may paint over one pixel of what it fills. A pattern's own tiling paints
 * about 1 (cells as large as their steps, or a little larger against seams); 64 at 300 dpi over a
 * whole A4 page is ~560 million pixel blends, under a second.
 */
export const MAX_TILE_OVERDRAW = 64;

/** Steps at or under this are no steps (MuPDF's own test: FLT_EPSILON). */
const NO_STEP = 1.2e-7;

const STEP_KEYS = ["XStep", "YStep"] as const;

/** A step of one tiling pattern changed for a draw, with the entry it had. */
export interface StepRepair {
  readonly pattern: mupdf.PDFObject;
  readonly key: (typeof STEP_KEYS)[number];
  readonly original: mupdf.PDFObject;
  readonly step: number;
}

/**
 * Runs `draw` with the tiling patterns reachable from page `index` (its resources, nested forms,
 * patterns, Type 3 glyphs, soft masks and annotation appearances) given bounded steps for a drawing
 * at `scale` pixels per point, and puts their entries back afterwards.
 */
export function withBoundedTiling<T>(doc: mupdf.Document, index: number, scale: number, draw: () => T): T {
  const pdf = doc.asPDF();
  const repairs = pdf === null ? [] : tilingRepairs(pdf, index, scale);
  for (const { pattern, key, step } of repairs) pattern.put(key, step);
  try {
    return draw();
  } finally {
    for (const { pattern, key, original } of repairs) {
      if (original.isNull()) pattern.delete(key);
      else pattern.put(key, original);
    }
  }
}

/** The steps to change, without changing them, for page `index` drawn at `scale` pixels per point. */
export function tilingRepairs(pdf: mupdf.PDFDocument, index: number, scale: number): StepRepair[] {
  const repairs: StepRepair[] = [];
  for (const pattern of reachablePatterns(pdf.findPage(index))) {
    const steps = boundedSteps(pattern, scale);
    if (steps === undefined) continue;
    STEP_KEYS.forEach((key, axis) => {
      const original = pattern.get(key);
      const step = steps[axis] ?? 0;
      if (!original.isNumber() || original.asNumber() !== step)
        repairs.push({ pattern, key, original, step });
    });
  }
  return repairs;
}

/**
 * The steps `pattern` is drawn with safely at `scale`, or undefined when its own are safe (or it
 * has no cell to draw).
 */
function boundedSteps(pattern: mupdf.PDFObject, scale: number): [number, number] | undefined {
  const box = numbers(pattern.get("BBox"), 4);
  if (box === undefined) return undefined;
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = box;
  const [a = 1, b = 0, c = 0, d = 1] = numbers(pattern.get("Matrix"), 6) ?? [];
  // Pixels per pattern unit along each axis (from the page's default space; a form drawing the
  // pattern may scale it further), each axis's cell size and step.
  const axes = [
    { pixels: Math.hypot(a, b) * scale, cell: Math.abs(x1 - x0), step: stepOf(pattern, "XStep") },
    { pixels: Math.hypot(c, d) * scale, cell: Math.abs(y1 - y0), step: stepOf(pattern, "YStep") },
  ] as const;
  if (axes.some(({ pixels }) => !(pixels > 0))) return undefined;
  const missing = axes.some(({ step }) => Math.abs(step) <= NO_STEP);
  // Cells painted over one pixel along each axis: a cell's pixmap is at least one pixel.
  const overdraw = axes.reduce(
    (product, { pixels, cell, step }) =>
      product * Math.max(1, Math.max(cell * pixels, 1) / (Math.max(Math.abs(step), NO_STEP) * pixels)),
    1,
  );
  if (!missing && overdraw <= MAX_TILE_OVERDRAW) return undefined;
  const [x, y] = axes.map(({ pixels, cell, step }) => {
    if (Math.abs(step) <= NO_STEP) return cell > 0 ? cell : 1 / pixels;
    return Math.sign(step) * Math.max(Math.abs(step), cell, 1 / pixels);
  });
  return x === undefined || y === undefined ? undefined : [x, y];
}

/** A step entry's value; 0 when it is missing or not a finite number. */
function stepOf(pattern: mupdf.PDFObject, key: (typeof STEP_KEYS)[number]): number {
  const step = pattern.get(key);
  return step.isNumber() && Number.isFinite(step.asNumber()) ? step.asNumber() : 0;
}

/** The `count` numbers of array `object`, or undefined when it is not one. */
function numbers(object: mupdf.PDFObject, count: number): number[] | undefined {
  if (!object.isArray() || object.length !== count) return undefined;
  const values: number[] = [];
  for (let i = 0; i < count; i++) {
    const value = object.get(i);
    if (!value.isNumber() || !Number.isFinite(value.asNumber())) return undefined;
    values.push(value.asNumber());
  }
  return values;
}

/** Resource categories whose entries may draw with resources of their own. */
const NESTED = ["XObject", "Pattern", "Font", "ExtGState"] as const;
const APPEARANCES = ["N", "R", "D"] as const;

/**
 * The tiling patterns (PatternType 1) a page may draw: through its resources, the resources of the
 * forms, patterns, Type 3 fonts and soft-mask groups they name, and its annotations' appearances.
 * Each object is visited once, so a resource loop ends the walk.
 */
function reachablePatterns(page: mupdf.PDFObject): mupdf.PDFObject[] {
  const patterns: mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  const pending: mupdf.PDFObject[] = [page.getInheritable("Resources")];
  // Entries may be null (MuPDF.js throws a TypeError on get() of a null): only dictionaries are read.
  const follow = (object: mupdf.PDFObject) => {
    if (!object.isDictionary()) return;
    if (object.isIndirect()) {
      if (seen.has(object.asIndirect())) return;
      seen.add(object.asIndirect());
    }
    if (object.get("PatternType").asNumber() === 1) patterns.push(object);
    const soft = object.get("SMask");
    const group = soft.isDictionary() ? soft.get("G") : undefined;
    if (group !== undefined) follow(group);
    pending.push(object.get("Resources"));
  };
  for (const annotation of annotationsOf(page)) {
    const appearances = annotation.get("AP");
    for (const kind of APPEARANCES) {
      const appearance = appearances.isDictionary() ? appearances.get(kind) : undefined;
      if (appearance?.isStream()) follow(appearance);
      else if (appearance?.isDictionary())
        appearance.forEach((state) => {
          if (state.isStream()) follow(state);
        });
    }
  }
  for (let resources = pending.pop(); resources !== undefined; resources = pending.pop()) {
    if (!resources.isDictionary()) continue;
    for (const category of NESTED) {
      const entries = resources.get(category);
      if (!entries.isDictionary()) continue;
      entries.forEach((entry) => {
        if (!entry.isDictionary()) return;
        // Images and fonts other than Type 3 hold no drawing of their own.
        const subtype = entry.get("Subtype");
        if (category === "XObject" && subtype.asName() !== "Form") return;
        if (category === "Font" && subtype.asName() !== "Type3") return;
        follow(entry);
      });
    }
  }
  return patterns;
}
