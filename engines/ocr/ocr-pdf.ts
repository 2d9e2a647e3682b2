/**
 * OCR of a PDF in place: each page without text is drawn in grey at its scan's own resolution,
 * turned upright when Tesseract's orientation detection says it lies sideways or upside down (by
 * the page's /Rotate, so the scan itself is untouched), recognised, and given an invisible text
 * layer (text-layer.ts) in a content stream of its own after the page's drawing. The page's
 * images and drawing are never decoded or rewritten.
 *
 * Pages that already carry text are kept as they are, unless `redo` asks for them too; a text
 * layer this engine added before is then replaced rather than doubled.
 */
import * as mupdf from "mupdf";
import type { LanguageCode } from "../../contract/index.ts";
import { copyPixels, pageScale } from "../pdf/render-page.ts";
import type { ProgressReporter } from "../types.ts";
import {
  detectLayout,
  type GreyImage,
  looksUpright,
  modelsFor,
  type OcrLine,
  recognise,
} from "./tesseract.ts";
import { addGlyphlessFont, OCR_FONT_NAME, TEXT_LAYER_MARK, textLayerContent } from "./text-layer.ts";

export interface OcrOptions {
  /** Languages of the text; none: each page's script is detected and its models used. */
  readonly languages: readonly LanguageCode[];
  /** Recognise pages that already have text too. */
  readonly redo: boolean;
  /**
   * 0-based indexes of pages recognised although they have text (text that cannot be read); a
   * layer added here before is replaced.
   */
  readonly alsoPages?: ReadonlySet<number>;
}

export interface OcrSummary {
  /** 0-based indexes of the pages recognised. */
  readonly recognised: readonly number[];
  /** Pages kept as they were because they already had text. */
  readonly kept: number;
  /** Pages turned upright. */
  readonly turned: number;
  /** Words written in text layers. */
  readonly words: number;
}

/** Resolution a page without scanned images is drawn at for recognition (Tesseract's advice). */
const DEFAULT_DPI = 300;
/**
 * Bounds of the drawing resolution: a scan is read at its own resolution within them. Under 150
 * dpi letters are too small for the models; over 400 recognition slows with no gain.
 */
const MIN_DPI = 150;
const MAX_DPI = 400;

/** Recognises the pages of `doc` (changed in place), reporting progress after each page. */
export async function ocrDocument(
  doc: mupdf.PDFDocument,
  options: OcrOptions,
  progress: ProgressReporter,
): Promise<OcrSummary> {
  const pageCount = doc.countPages();
  let font: mupdf.PDFObject | undefined;
  const recognised: number[] = [];
  let kept = 0;
  let turned = 0;
  let words = 0;
  for (let index = 0; index < pageCount; index++) {
    const pageObject = doc.findPage(index);
    const redo = options.redo || options.alsoPages?.has(index) === true;
    const hadLayer = removeTextLayer(pageObject, redo);
    if (!redo && (hadLayer || pageHasText(doc, index))) {
      kept++;
    } else {
      const page = await recognisePage(doc, index, options);
      turned += page.turned ? 1 : 0;
      const count = page.lines.reduce((sum, line) => sum + line.words.length, 0);
      if (count > 0) {
        font ??= addGlyphlessFont(doc);
        addTextLayer(doc, pageObject, font, textLayerContent(page.lines, page.toPixels));
        words += count;
      }
      recognised.push(index);
    }
    progress(((index + 1) / pageCount) * 100);
  }
  return { recognised, kept, turned, words };
}

interface RecognisedPage {
  readonly lines: readonly OcrLine[];
  readonly toPixels: mupdf.Matrix;
  readonly turned: boolean;
}

/**
 * Recognises one page. With languages chosen, orientation is detected only when the words read
 * do not look upright (looksUpright), so an upright page costs one pass; without, detection comes
 * first since it also names the script. When detection cannot decide (too little text for it) and
 * the words still do not look upright, the other three quarter turns are tried and the one read
 * with the most confidence kept.
 */
async function recognisePage(doc: mupdf.PDFDocument, index: number, options: OcrOptions) {
  const pageObject = doc.findPage(index);
  const original = pageObject.getInheritable("Rotate").asNumber() || 0;
  let image = drawPage(doc, index);
  let turn = 0;
  const turnTo = (quarter: number) => {
    turn = quarter;
    pageObject.put("Rotate", (original + quarter) % 360);
    image = drawPage(doc, index);
  };
  let models = modelsFor(options.languages);
  let detected = false;
  if (options.languages.length === 0) {
    const layout = await detectLayout(image);
    models = layout.models;
    detected = true;
    if (layout.rotate !== 0) turnTo(layout.rotate);
  }
  let lines = await recognise(image, models);
  if (!detected && !looksUpright(lines)) {
    const layout = await detectLayout(image);
    if (layout.rotate !== 0) {
      turnTo(layout.rotate);
      lines = await recognise(image, models);
    }
  }
  if (!looksUpright(lines) && lines.length > 0) {
    let best = { turn, lines, score: confidenceOf(lines) };
    for (const quarter of [0, 90, 180, 270].filter((quarter) => quarter !== turn)) {
      turnTo(quarter);
      const tried = await recognise(image, models);
      const score = confidenceOf(tried) + (looksUpright(tried) ? 100 : 0);
      if (score > best.score) best = { turn: quarter, lines: tried, score };
    }
    if (best.turn !== turn) turnTo(best.turn);
    lines = best.lines;
  }
  return { lines, toPixels: image.toPixels, turned: turn !== 0 } satisfies RecognisedPage;
}

/** Mean confidence of the words read (0 without any). */
function confidenceOf(lines: readonly OcrLine[]): number {
  const words = lines.flatMap((line) => line.words);
  return words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
}

/** The page drawn in grey, and the matrix from its user space to the image's pixels. */
function drawPage(doc: mupdf.PDFDocument, index: number): GreyImage & { toPixels: mupdf.Matrix } {
  const page = doc.loadPage(index);
  let pixmap: mupdf.Pixmap | undefined;
  try {
    const { scale } = pageScale(page.getBounds(), scanResolution(page));
    const drawing = mupdf.Matrix.scale(scale, scale);
    pixmap = page.toPixmap(drawing, mupdf.ColorSpace.DeviceGray, false, true);
    const width = pixmap.getWidth();
    const height = pixmap.getHeight();
    const samples = copyPixels(pixmap);
    const toPixels = mupdf.Matrix.concat(page.getTransform(), drawing);
    return { width, height, samples, dpi: scale * 72, toPixels };
  } finally {
    pixmap?.destroy();
    page.destroy();
  }
}

/**
 * The resolution of the page's largest image as placed on the page (a scan's own), within
 * MIN_DPI–MAX_DPI; DEFAULT_DPI for a page without images.
 */
function scanResolution(page: mupdf.PDFPage): number {
  let best = 0;
  let area = 0;
  const text = page.toStructuredText("preserve-images");
  try {
    text.walk({
      onImageBlock(bbox, _transform, image) {
        const placed = Math.abs((bbox[2] - bbox[0]) * (bbox[3] - bbox[1]));
        if (placed <= area) return;
        area = placed;
        best = Math.sqrt((image.getWidth() * image.getHeight()) / placed) * 72;
      },
    });
  } finally {
    text.destroy();
  }
  if (best === 0) return DEFAULT_DPI;
  return Math.min(MAX_DPI, Math.max(MIN_DPI, best));
}

function pageHasText(doc: mupdf.PDFDocument, index: number): boolean {
  const page = doc.loadPage(index);
  try {
    const text = page.toStructuredText("");
    try {
      return text.asText().trim() !== "";
    } finally {
      text.destroy();
    }
  } finally {
    page.destroy();
  }
}

/**
 * Appends the text layer: the page's own content is wrapped in q … Q so whatever graphics state it
 * leaves cannot move or hide the text, and the font joins the page's resources.
 */
function addTextLayer(
  doc: mupdf.PDFDocument,
  pageObject: mupdf.PDFObject,
  font: mupdf.PDFObject,
  content: string,
): void {
  if (!pageObject.get("Resources").isDictionary()) {
    // Inherited resources are copied onto the page, which then gets the font as its own.
    const inherited = pageObject.getInheritable("Resources");
    const own = doc.newDictionary();
    if (inherited.isDictionary())
      inherited.forEach((value, key) => {
        own.put(key, value);
      });
    pageObject.put("Resources", own);
  }
  const resources = pageObject.get("Resources");
  if (!resources.get("Font").isDictionary()) resources.put("Font", doc.newDictionary());
  resources.get("Font").put(OCR_FONT_NAME, font);
  const contents = pageObject.get("Contents");
  const streams = doc.newArray();
  streams.push(doc.addStream("q\n", {}));
  if (contents.isArray())
    contents.forEach((stream) => {
      streams.push(stream);
    });
  else if (!contents.isNull()) streams.push(contents);
  streams.push(doc.addStream(`Q\n${content}`, {}));
  pageObject.put("Contents", streams);
}

/**
 * Removes a text layer this engine added (when `remove`); answers whether the page had one. The
 * layer is the last content stream, starting with TEXT_LAYER_MARK after the Q.
 */
function removeTextLayer(pageObject: mupdf.PDFObject, remove: boolean): boolean {
  const contents = pageObject.get("Contents");
  if (!contents.isArray() || contents.length < 2) return false;
  const last = contents.get(contents.length - 1);
  const head = new TextDecoder().decode(last.readStream().asUint8Array().subarray(0, 64));
  if (!head.startsWith(`Q\n${TEXT_LAYER_MARK}`)) return false;
  if (remove) {
    contents.delete(contents.length - 1);
    contents.delete(0);
  }
  return true;
}
