/**
 * OCR of a PDF in place: each page without text is drawn in grey at its scan's own resolution (or,
 * when it is nothing but a JPEG over the whole page, that JPEG is handed to Tesseract as it is),
 * recognised, turned upright when it lies sideways or upside down (by the page's /Rotate, so the
 * scan itself is untouched), and given an invisible text layer (text-layer.ts) in a content stream
 * of its own after the page's drawing. The page's images and drawing are never rewritten.
 *
 * Pages that already carry text are kept as they are, unless `redo` asks for them too. The old
 * text layer is then removed rather than doubled: a layer this engine added before, or invisible
 * text of any other (render mode 3, as OCR programs write it), removed from the page's drawing by a
 * redaction of text only. Text that shows is part of the page's look and stays: the new layer
 * leaves out the words read over it.
 */
import * as mupdf from "mupdf";
import type { LanguageCode } from "../../contract/index.ts";
import { copyPixels, pageScale } from "../pdf/render-page.ts";
import { withBoundedTiling } from "../pdf/tiling-patterns.ts";
import type { ProgressReporter } from "../types.ts";
import {
  cropImage,
  detectLayout,
  type GreyImage,
  modelsFor,
  type OcrLine,
  type PageImage,
  type PixelBox,
  type QuarterTurn,
  readingTurn,
  recognise,
  turnImage,
  turnLines,
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
      // Text that is left after this engine's own layer went (the page as now turned).
      const shown = options.redo && pageHasText(doc, index) ? removeHiddenText(doc, index) : [];
      turned += page.turned ? 1 : 0;
      const lines = withoutShownText(page.lines, shown, page.scale);
      const count = lines.reduce((sum, line) => sum + line.words.length, 0);
      if (count > 0) {
        font ??= addGlyphlessFont(doc);
        addTextLayer(doc, pageObject, font, textLayerContent(lines, page.toPixels));
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
  /** From the page's drawn space (points, y down, as turned) to the lines' pixels. */
  readonly scale: number;
  readonly turned: boolean;
}

/** Lines read on a page image, and the clockwise turn that made that image upright. */
interface Reading {
  readonly lines: OcrLine[];
  readonly turn: QuarterTurn;
  readonly upright: boolean;
}

/**
 * Recognises one page, in one Tesseract pass when it is upright or turned a quarter clockwise (read
 * as vertical text, readingTurn). Pages read as neither are read once more turned 180° in memory:
 * that rights a page upside down and makes one turned anticlockwise a clockwise one. Without
 * languages, orientation and script detection comes first (its script names the models), and its
 * turn is applied before the pass. The page is turned upright by its /Rotate (the scan untouched),
 * and the words placed in the pixels of the upright page. With languages, a page that is one JPEG
 * is read from its JPEG: nothing is drawn unless a second pass needs the image.
 */
async function recognisePage(doc: mupdf.PDFDocument, index: number, options: OcrOptions) {
  const pageObject = doc.findPage(index);
  const original = pageObject.getInheritable("Rotate").asNumber() || 0;
  const scale = drawingScale(doc, index);
  let drawn: GreyImage | undefined;
  const draw = () => {
    drawn ??= drawPage(doc, index, scale);
    return drawn;
  };
  let models = modelsFor(options.languages);
  let reading: Reading;
  if (options.languages.length === 0) {
    const layout = await detectLayout(draw());
    models = layout.models;
    reading = await read(turnImage(draw(), layout.rotate), models, layout.rotate);
  } else {
    reading = await read(
      original === 0 ? (scanJpeg(doc, index, scale) ?? { dpi: scale * 72, draw }) : { dpi: scale * 72, draw },
      models,
      0,
    );
  }
  if (!reading.upright && reading.lines.length > 0) {
    const again = await read(
      turnImage(draw(), ((reading.turn + 180) % 360) as QuarterTurn),
      models,
      ((reading.turn + 180) % 360) as QuarterTurn,
    );
    if (again.upright) reading = again;
  }
  if (options.languages.length === 0)
    reading = {
      ...reading,
      lines: await readOtherScripts(turnImage(draw(), reading.turn), reading.lines, models),
    };
  if (reading.turn !== 0) pageObject.put("Rotate", (original + reading.turn) % 360);
  const toPixels = pixelMatrix(doc, index, scale);
  return { lines: reading.lines, toPixels, scale, turned: reading.turn !== 0 } satisfies RecognisedPage;
}

/**
 * Reads a page image drawn turned clockwise by `turn`; a reading of vertical text is placed on the
 * image turned upright.
 */
async function read(image: PageImage, models: string, turn: QuarterTurn): Promise<Reading> {
  const lines = await recognise(image, models);
  const more = readingTurn(lines);
  if (more === undefined) return { lines, turn, upright: false };
  if (more === 0) return { lines, turn, upright: true };
  const { width, height } = "draw" in image ? image.draw() : image;
  return {
    lines: turnLines(lines, more, width, height),
    turn: ((turn + more) % 360) as QuarterTurn,
    upright: true,
  };
}

/**
 * Mean word confidence under which a line, read with the models of the page's detected script,
 * may be in another script: English lines of a scan measured about 96, a Hindi line read with the
 * Latin models 51.
 */
const MIN_LINE_CONFIDENCE = 70;

/** Scripts besides the detected one that a page is searched for (the site has four). */
const MAX_OTHER_SCRIPTS = 3;

/**
 * A page mixing scripts (English and Hindi, say) has one script detected, so its lines in another
 * read poorly. The part of the upright `image` holding those lines has its own script detected
 * and, when that is a new one, is read again with its models (which include English), its lines
 * taking the place of those read there before; then the lines still read poorly, in turn.
 */
async function readOtherScripts(image: GreyImage, read: OcrLine[], models: string): Promise<OcrLine[]> {
  const tried = new Set([models]);
  let lines = read;
  for (let round = 0; round < MAX_OTHER_SCRIPTS; round++) {
    const weak = lines.filter((line) => confidenceOf([line]) < MIN_LINE_CONFIDENCE);
    if (weak.length === 0) break;
    const margin = Math.max(...weak.map((line) => line.height)) / 2;
    const left = Math.max(0, Math.floor(Math.min(...weak.map((line) => line.left)) - margin));
    const top = Math.max(0, Math.floor(Math.min(...weak.map((line) => line.top)) - margin));
    const right = Math.max(...weak.map((line) => line.left + line.width)) + margin;
    const bottom = Math.max(...weak.map((line) => line.top + line.height)) + margin;
    const part = cropImage(image, { left, top, width: right - left, height: bottom - top });
    const layout = await detectLayout(part);
    if (!layout.detected || tried.has(layout.models)) break;
    tried.add(layout.models);
    const move = <T extends PixelBox>(item: T): T => ({
      ...item,
      left: item.left + left,
      top: item.top + top,
    });
    const again = (await recognise(part, layout.models)).map((line) => ({
      ...move(line),
      words: line.words.map(move),
    }));
    const inside = (line: OcrLine) => {
      const x = line.left + line.width / 2;
      const y = line.top + line.height / 2;
      return x >= left && x <= right && y >= top && y <= bottom;
    };
    const first = lines.findIndex(inside);
    lines = [...lines.slice(0, first), ...again, ...lines.slice(first).filter((line) => !inside(line))];
  }
  return lines;
}

/**
 * The JPEG of a page that is nothing but one JPEG drawn upright over all of it at `scale` pixels
 * per point (a scanner's page, or an image made a PDF), for Tesseract to read as it is: it is the
 * page as drawn, pixel for pixel, without drawing it.
 */
function scanJpeg(doc: mupdf.PDFDocument, index: number, scale: number): PageImage | undefined {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    let images = 0;
    let other = false;
    let placed: mupdf.Matrix | undefined;
    const drawing = () => {
      other = true;
    };
    const device = new mupdf.Device({
      fillPath: drawing,
      strokePath: drawing,
      clipPath: drawing,
      clipStrokePath: drawing,
      fillText: drawing,
      strokeText: drawing,
      clipText: drawing,
      clipStrokeText: drawing,
      fillShade: (shade) => {
        forgetBorrowedShade(shade);
        other = true;
      },
      fillImageMask: drawing,
      clipImageMask: drawing,
      beginMask: drawing,
      beginGroup: drawing,
      beginTile: () => {
        other = true;
        return 0;
      },
      fillImage: (_image, ctm, alpha) => {
        images++;
        placed = ctm;
        if (alpha !== 1) other = true;
      },
    });
    try {
      page.runPageContents(device, mupdf.Matrix.identity);
      device.close();
    } finally {
      device.destroy();
    }
    if (other || images !== 1 || placed === undefined) return undefined;
    const [a, b, c, d, e, f] = placed;
    const near = (value: number, target: number) => Math.abs(value - target) < 0.5;
    const covers = near(a, x1 - x0) && near(d, y1 - y0) && b === 0 && c === 0 && near(e, x0) && near(f, y0);
    const stream = onlyImage(page.getObject());
    if (!covers || stream === undefined) return undefined;
    const width = stream.get("Width").asNumber();
    const height = stream.get("Height").asNumber();
    // The drawing scale is the image's own (a resolution within MIN_DPI–MAX_DPI).
    if (Math.abs(width - a * scale) > 1 || Math.abs(height - d * scale) > 1) return undefined;
    return { dpi: scale * 72, width, height, jpeg: stream.readRawStream().asUint8Array().slice() };
  } finally {
    page.destroy();
  }
}

/**
 * MuPDF.js (1.28) hands a device's `fillShade` a Shade wrapper made without taking a reference, yet
 * drops the shading when the wrapper is collected: freed twice, MuPDF's heap is corrupted and a
 * later job in the same runner traps ("memory access out of bounds"). The wrapper is unregistered
 * from its finalizer and emptied at once, so that only MuPDF drops the shading it owns.
 */
function forgetBorrowedShade(shade: mupdf.Shade): void {
  const finalizer = (mupdf.Shade as unknown as { _finalizer?: FinalizationRegistry<unknown> })._finalizer;
  finalizer?.unregister(shade);
  (shade as unknown as { pointer: number }).pointer = 0;
}

/**
 * The page's one image XObject when it is a plain 8-bit grey or RGB JPEG (device or ICC colour; no
 * decode array, mask or other filter), which Tesseract reads the way MuPDF draws it.
 */
function onlyImage(pageObject: mupdf.PDFObject): mupdf.PDFObject | undefined {
  const objects = pageObject.get("Resources").get("XObject");
  if (!objects.isDictionary()) return undefined;
  const images: mupdf.PDFObject[] = [];
  objects.forEach((value) => {
    if (value.get("Subtype").asName() === "Image") images.push(value);
  });
  const [image] = images;
  if (image === undefined || images.length !== 1) return undefined;
  const filter = image.get("Filter");
  const only = filter.isArray() && filter.length === 1 ? filter.get(0) : filter;
  const space = image.get("ColorSpace");
  const base = space.isArray() && space.get(0).asName() === "ICCBased" ? space.get(1).get("N").asNumber() : 0;
  const plain =
    only.isName() &&
    only.asName() === "DCTDecode" &&
    image.get("BitsPerComponent").asNumber() === 8 &&
    ((space.isName() && ["DeviceGray", "DeviceRGB"].includes(space.asName())) || base === 1 || base === 3) &&
    [image.get("Decode"), image.get("SMask"), image.get("Mask"), image.get("DecodeParms")].every((entry) =>
      entry.isNull(),
    ) &&
    !image.get("ImageMask").asBoolean();
  return plain ? image : undefined;
}

/** Mean confidence of the words read (0 without any). */
function confidenceOf(lines: readonly OcrLine[]): number {
  const words = lines.flatMap((line) => line.words);
  return words.length === 0 ? 0 : words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
}

/** Scale from the page's user space to the pixels it is recognised in. */
function drawingScale(doc: mupdf.PDFDocument, index: number): number {
  const page = doc.loadPage(index);
  try {
    return pageScale(page.getBounds(), scanResolution(page)).scale;
  } finally {
    page.destroy();
  }
}

/** The matrix from the page's user space (as it is now turned) to the pixels drawn at `scale`. */
function pixelMatrix(doc: mupdf.PDFDocument, index: number, scale: number): mupdf.Matrix {
  const page = doc.loadPage(index);
  try {
    return mupdf.Matrix.concat(page.getTransform(), mupdf.Matrix.scale(scale, scale));
  } finally {
    page.destroy();
  }
}

/**
 * The page drawn in grey at `scale`, as it is turned by its /Rotate now; a tiling pattern without a
 * usable step is drawn with bounded steps, and keeps its own in the document (tiling-patterns.ts).
 */
function drawPage(doc: mupdf.PDFDocument, index: number, scale: number): GreyImage {
  const page = doc.loadPage(index);
  let pixmap: mupdf.Pixmap | undefined;
  try {
    pixmap = withBoundedTiling(doc, index, scale, () =>
      page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceGray, false, true),
    );
    return {
      width: pixmap.getWidth(),
      height: pixmap.getHeight(),
      samples: copyPixels(pixmap),
      dpi: scale * 72,
    };
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
 * Before a page with text is recognised again: its invisible text (an old OCR layer, render mode 3)
 * is removed from its drawing by a redaction of text only, images and line art untouched. Text
 * that shows stays, and so does an invisible glyph lying over one that shows (a redaction takes
 * every glyph in its box). Answers the boxes of the lines of text left (in the page's drawn space).
 */
function removeHiddenText(doc: mupdf.PDFDocument, index: number): mupdf.Rect[] {
  const page = doc.loadPage(index);
  try {
    const { shown, hidden } = glyphBoxes(page);
    const overlaps = (a: mupdf.Rect, b: mupdf.Rect) =>
      a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    const removed =
      shown.length === 0
        ? [page.getBounds()]
        : hidden.filter((box) => !shown.some((seen) => overlaps(box, seen)));
    if (removed.length > 0) {
      for (const box of removed) page.createAnnotation("Redact").setRect(box);
      page.applyRedactions(
        false,
        mupdf.PDFPage.REDACT_IMAGE_NONE,
        mupdf.PDFPage.REDACT_LINE_ART_NONE,
        mupdf.PDFPage.REDACT_TEXT_REMOVE,
      );
    }
    if (shown.length === 0) return [];
    const boxes: mupdf.Rect[] = [];
    const text = page.toStructuredText("");
    try {
      text.walk({ beginLine: (bbox) => boxes.push(bbox) });
    } finally {
      text.destroy();
    }
    return boxes;
  } finally {
    page.destroy();
  }
}

/**
 * The boxes of the page's glyphs (its drawn space), those that show apart from the invisible ones
 * (render mode 3, which MuPDF hands its devices as ignored text). Text used as a clip counts as
 * shown: it may reveal what is drawn through it.
 */
function glyphBoxes(page: mupdf.PDFPage): { shown: mupdf.Rect[]; hidden: mupdf.Rect[] } {
  const shown: mupdf.Rect[] = [];
  const hidden: mupdf.Rect[] = [];
  const collect = (into: mupdf.Rect[]) => (text: mupdf.Text, ctm: mupdf.Matrix) =>
    text.walk({
      showGlyph(font, trm, glyph, _unicode, wmode) {
        const advance = font.advanceGlyph(glyph, wmode) || 0.5;
        // The glyph's em box, from the descender to the ascender of a usual font, along its advance.
        into.push(mupdf.Rect.transform([0, -0.25, advance, 0.85], mupdf.Matrix.concat(trm, ctm)));
      },
    });
  const device = new mupdf.Device({
    fillText: collect(shown),
    strokeText: (text, _stroke, ctm) => collect(shown)(text, ctm),
    clipText: collect(shown),
    clipStrokeText: (text, _stroke, ctm) => collect(shown)(text, ctm),
    ignoreText: collect(hidden),
  });
  try {
    page.runPageContents(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return { shown, hidden };
}

/** The lines without the words whose centre lies in one of `shown` (boxes in points, y down). */
function withoutShownText(lines: readonly OcrLine[], shown: readonly mupdf.Rect[], scale: number): OcrLine[] {
  if (shown.length === 0) return [...lines];
  const covered = (x: number, y: number) =>
    shown.some(
      ([x0, y0, x1, y1]) => x >= x0 * scale && x <= x1 * scale && y >= y0 * scale && y <= y1 * scale,
    );
  return lines
    .map((line) => ({
      ...line,
      words: line.words.filter((word) => !covered(word.left + word.width / 2, word.top + word.height / 2)),
    }))
    .filter((line) => line.words.length > 0);
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
