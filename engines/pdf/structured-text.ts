/**
 * A page's text as typed data, read with MuPDF's structured text: blocks of lines, lines of styled
 * spans, spans of characters with their boxes, plus the page's images and its vector rules
 * (horizontal and vertical lines and thin bars, e.g. table borders and underlines) and filled
 * boxes. PDF to Word and PDF to Excel build on it. Coordinates are PDF points with the origin at
 * the top left of the page, y growing downwards (MuPDF's convention).
 *
 * Lines are MuPDF's own (one baseline, one writing direction); a span is a run of characters of
 * one font, size, weight, slant and colour within a line. A span is `underline` when a horizontal
 * rule of the page runs under its baseline along its width.
 */
import * as mupdf from "mupdf";
import { clipText, withArraysRepaired } from "./hidden-text.ts";

/** [x0, y0, x1, y1], x0 ≤ x1 and y0 ≤ y1. */
export type Box = readonly [x0: number, y0: number, x1: number, y1: number];

export interface TextChar {
  readonly c: string;
  readonly box: Box;
  /** Baseline origin of the glyph. */
  readonly x: number;
  readonly y: number;
}

export interface TextSpan {
  readonly text: string;
  readonly box: Box;
  /** The PDF's font name without its subset prefix (`ABCDEF+`). */
  readonly font: string;
  readonly size: number;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly monospace: boolean;
  readonly serif: boolean;
  /** `RRGGBB` in sRGB. */
  readonly color: string;
  readonly underline: boolean;
  readonly chars: readonly TextChar[];
}

export interface TextLine {
  readonly box: Box;
  /** 0 horizontal, 1 vertical writing. */
  readonly wmode: number;
  /** Writing direction (1, 0) for ordinary left-to-right text. */
  readonly dir: readonly [number, number];
  /** Baseline y of the line's first character. */
  readonly baseline: number;
  readonly spans: readonly TextSpan[];
  readonly text: string;
}

export interface TextBlock {
  readonly type: "text";
  readonly box: Box;
  readonly lines: readonly TextLine[];
}

export interface ImageBlock {
  readonly type: "image";
  readonly box: Box;
  readonly transform: mupdf.Matrix;
  /** The image as MuPDF decodes it; valid while the page's document is open. */
  readonly image: mupdf.Image;
}

export type PageBlock = TextBlock | ImageBlock;

/** A straight axis-aligned stroke or thin filled bar. */
export interface Rule {
  readonly orientation: "horizontal" | "vertical";
  /** Position across the rule (y of a horizontal rule, x of a vertical one). */
  readonly at: number;
  /** Extent along the rule. */
  readonly from: number;
  readonly to: number;
  readonly width: number;
  readonly color: string;
}

/** A filled rectangle larger than a rule (cell shading, boxes, highlight bars). */
export interface Fill {
  readonly box: Box;
  readonly color: string;
}

export interface PageText {
  /** 0-based page index. */
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly blocks: readonly PageBlock[];
  readonly rules: readonly Rule[];
  readonly fills: readonly Fill[];
}

export interface ReadOptions {
  /** Image blocks in `blocks` (default true). */
  readonly images?: boolean;
  /** Rules and fills from the page's vector drawing (default true). */
  readonly rules?: boolean;
}

/** A bar at most this thick (points) counts as a rule rather than a filled box. */
export const RULE_THICKNESS = 3;

const STEXT_OPTIONS = "preserve-whitespace,accurate-bboxes";

/** Reads one page's text, images and rules. */
export function readPageText(page: mupdf.Page, index: number, options: ReadOptions = {}): PageText {
  const bounds = page.getBounds();
  const wantImages = options.images ?? true;
  // What the page shows: its contents, then its annotations and form fields (a filled form, a
  // FreeText comment), as text extractors and viewers give them. `page.toStructuredText` reads
  // the contents alone, so a page whose text is all in fields came out empty.
  const stextOptions = wantImages ? `${STEXT_OPTIONS},preserve-images` : STEXT_OPTIONS;
  const read = () => {
    const shown = page.toDisplayList(true);
    const stext = shown.toStructuredText(stextOptions);
    let blocks = collectBlocks(stext);
    stext.destroy();
    // Text MuPDF's text device leaves out (engines/pdf/hidden-text.ts), sought only on a page
    // where it finds none.
    const clipped = hasText(blocks) ? null : clipText(page, STEXT_OPTIONS);
    shown.destroy();
    if (clipped !== null) {
      blocks = [...blocks, ...collectBlocks(clipped)];
      clipped.destroy();
    }
    return blocks;
  };
  let blocks = read();
  if (!hasText(blocks) && page instanceof mupdf.PDFPage) blocks = withArraysRepaired(page, read) ?? blocks;
  const drawing = options.rules === false ? { rules: [], fills: [] } : collectDrawing(page, bounds);
  const ox = bounds[0];
  const oy = bounds[1];
  const shifted = ox === 0 && oy === 0 ? blocks : blocks.map((block) => shiftBlock(block, -ox, -oy));
  const rules = drawing.rules.map((rule) => shiftRule(rule, -ox, -oy));
  const fills = drawing.fills.map((fill) => ({ ...fill, box: shiftBox(fill.box, -ox, -oy) }));
  return {
    index,
    width: bounds[2] - bounds[0],
    height: bounds[3] - bounds[1],
    blocks: markUnderlines(shifted, rules),
    rules,
    fills,
  };
}

function hasText(blocks: readonly PageBlock[]): boolean {
  return blocks.some((block) => block.type === "text" && block.lines.length > 0);
}

/** Every text line of the page in MuPDF's order. */
export function textLines(page: PageText): TextLine[] {
  return page.blocks.flatMap((block) => (block.type === "text" ? block.lines : []));
}

const STRONG_RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/gu;
const STRONG_LTR =
  /(?![\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}])\p{L}/gu;

/** Text written right to left: more letters of right-to-left scripts than of the others. */
export function rightToLeft(text: string): boolean {
  const rtl = text.match(STRONG_RTL)?.length ?? 0;
  return rtl > 0 && rtl > (text.match(STRONG_LTR)?.length ?? 0);
}

/**
 * White between two glyphs met one after the other: the second to the right of the first or, in
 * right-to-left text (which comes in reading order), to its left.
 */
export function glyphGap(last: Box, next: Box): number {
  return next[0] + next[2] >= last[0] + last[2] ? next[0] - last[2] : last[0] - next[2];
}

/** The union of boxes. */
export function unionBox(boxes: readonly Box[]): Box {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const box of boxes) {
    x0 = Math.min(x0, box[0]);
    y0 = Math.min(y0, box[1]);
    x1 = Math.max(x1, box[2]);
    y1 = Math.max(y1, box[3]);
  }
  return [x0, y0, x1, y1];
}

/** The PDF font name without a subset tag (`ABCDEF+Name` → `Name`). */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, "");
}

interface CharStyle {
  readonly font: FontFacts;
  readonly size: number;
  readonly color: string;
}

/**
 * Each text line's characters as code points, from MuPDF's JSON of the page, in the order `walk`
 * visits the lines (the JSON writes every character whole). MuPDF.js's `walk` hands each character over as
 * `String.fromCharCode` of its code point, which keeps its low 16 bits: an emoji (U+1F389 as the
 * private-use U+F389), a CJK Extension B ideograph (U+20041 as "A") or a mathematical letter
 * came out as another character.
 */
function lineCodePoints(stext: mupdf.StructuredText): number[][] {
  const lines: number[][] = [];
  const page = JSON.parse(stext.asJSON()) as { blocks?: { lines?: { text?: string }[] }[] };
  for (const block of page.blocks ?? [])
    for (const line of block.lines ?? [])
      lines.push([...(line.text ?? "")].map((c) => c.codePointAt(0) ?? 0));
  return lines;
}

/**
 * `c` as `walk` gives it, or the character of `codePoint` when that is outside the BMP and `c`
 * is its low 16 bits (see lineCodePoints).
 */
function wholeCharacter(c: string, codePoint: number | undefined): string {
  if (codePoint === undefined || codePoint <= 0xffff || c.length !== 1) return c;
  return (codePoint & 0xffff) === c.charCodeAt(0) ? String.fromCodePoint(codePoint) : c;
}

function collectBlocks(stext: mupdf.StructuredText): PageBlock[] {
  const blocks: PageBlock[] = [];
  const codePoints = lineCodePoints(stext);
  let lineIndex = -1;
  let lines: TextLine[] = [];
  let blockBox: Box = [0, 0, 0, 0];
  let line: { box: Box; wmode: number; dir: [number, number]; chars: [TextChar, CharStyle][] } | null = null;
  // Each character brings a new wrapper of the same MuPDF font: facts are cached by its pointer.
  const fontFacts = new Map<unknown, FontFacts>();
  const factsOf = (font: mupdf.Font): FontFacts => {
    let facts = fontFacts.get(font.pointer);
    if (facts === undefined) {
      const name = baseFontName(font.getName());
      facts = {
        name,
        bold: font.isBold() || /bold|black|heavy|semibold|demi/i.test(name),
        italic: font.isItalic() || /italic|oblique/i.test(name),
        mono: font.isMono(),
        serif: font.isSerif(),
      };
      fontFacts.set(font.pointer, facts);
    }
    return facts;
  };
  stext.walk({
    onImageBlock(bbox, transform, image) {
      blocks.push({ type: "image", box: toBox(bbox), transform, image });
    },
    beginTextBlock(bbox) {
      lines = [];
      blockBox = toBox(bbox);
    },
    beginLine(bbox, wmode, direction) {
      line = { box: toBox(bbox), wmode, dir: [direction[0], direction[1]], chars: [] };
      lineIndex++;
    },
    onChar(c, origin, font, size, quad, color) {
      const codePoint = codePoints[lineIndex]?.[line?.chars.length ?? 0];
      line?.chars.push([
        { c: wholeCharacter(c, codePoint), box: quadBox(quad), x: origin[0], y: origin[1] },
        { font: factsOf(font), size, color: hexColor(color) },
      ]);
    },
    endLine() {
      if (line !== null && line.chars.length > 0) lines.push(buildLine(withoutClosedSpaces(line)));
      line = null;
    },
    endTextBlock() {
      if (lines.length > 0) blocks.push({ type: "text", box: blockBox, lines });
      lines = [];
    },
  });
  return blocks;
}

/** A space between two glyphs closer than this many font sizes shows no gap: it is no word break. */
const CLOSED_SPACE = 0.08;

/**
 * The line without the space characters that show no gap: a producer that draws a space and then
 * sets the next glyph back against the previous one ("sécuritésoc iale" where the page shows one
 * word) means no word break; pdftotext and readers of the page see one word.
 */
function withoutClosedSpaces<
  T extends { dir: [number, number]; wmode: number; chars: [TextChar, CharStyle][] },
>(line: T): T {
  if (line.wmode !== 0 || Math.abs(line.dir[1]) > 0.05) return line;
  const chars = line.chars.filter(([char, style], i) => {
    if (char.c !== " ") return true;
    const before = line.chars[i - 1]?.[0];
    const after = line.chars[i + 1]?.[0];
    if (before === undefined || after === undefined || before.c.trim() === "" || after.c.trim() === "")
      return true;
    return glyphGap(before.box, after.box) >= style.size * CLOSED_SPACE;
  });
  return chars.length === line.chars.length ? line : { ...line, chars };
}

interface FontFacts {
  readonly name: string;
  readonly bold: boolean;
  readonly italic: boolean;
  readonly mono: boolean;
  readonly serif: boolean;
}

function buildLine(line: {
  box: Box;
  wmode: number;
  dir: [number, number];
  chars: [TextChar, CharStyle][];
}): TextLine {
  const spans: TextSpan[] = [];
  let current: { style: CharStyle; chars: TextChar[] } | null = null;
  const flush = () => {
    if (current === null) return;
    const facts = current.style.font;
    spans.push({
      text: current.chars.map((char) => char.c).join(""),
      box: unionBox(current.chars.map((char) => char.box)),
      font: facts.name,
      size: round(current.style.size),
      bold: facts.bold,
      italic: facts.italic,
      monospace: facts.mono,
      serif: facts.serif,
      color: current.style.color,
      underline: false,
      chars: current.chars,
    });
  };
  for (const [char, style] of line.chars) {
    const same =
      current !== null &&
      (current.style.font === style.font || char.c === " ") &&
      Math.abs(current.style.size - style.size) < 0.05 &&
      (current.style.color === style.color || char.c === " ");
    if (!same) {
      flush();
      current = { style, chars: [] };
    }
    current?.chars.push(char);
  }
  flush();
  const first = line.chars[0]?.[0];
  return {
    box: line.box,
    wmode: line.wmode,
    dir: line.dir,
    baseline: first?.y ?? line.box[3],
    spans,
    text: spans.map((span) => span.text).join(""),
  };
}

/**
 * Splits spans where a thin horizontal rule runs just under the baseline (an underline) and marks
 * those parts `underline`.
 */
function markUnderlines(blocks: PageBlock[], rules: readonly Rule[]): PageBlock[] {
  const horizontal = rules.filter((rule) => rule.orientation === "horizontal" && rule.width <= 2);
  if (horizontal.length === 0) return blocks;
  return blocks.map((block) => {
    if (block.type !== "text") return block;
    return {
      ...block,
      lines: block.lines.map((line) => ({
        ...line,
        spans: line.spans.flatMap((span) => splitUnderlined(span, horizontal)),
      })),
    };
  });
}

function splitUnderlined(span: TextSpan, horizontal: readonly Rule[]): TextSpan[] {
  const near = horizontal.filter((rule) => {
    const baseline = span.chars[0]?.y ?? span.box[3];
    return (
      rule.at >= baseline - 0.5 &&
      rule.at <= baseline + span.size * 0.35 &&
      rule.to > span.box[0] &&
      rule.from < span.box[2]
    );
  });
  if (near.length === 0) return [span];
  const flags = span.chars.map((char) => {
    const middle = (char.box[0] + char.box[2]) / 2;
    return near.some((rule) => rule.from <= middle && middle <= rule.to);
  });
  // A space between two underlined characters is underlined too; one at either end is not.
  const parts: TextSpan[] = [];
  let from = 0;
  for (let i = 1; i <= span.chars.length; i++) {
    if (i < span.chars.length && flags[i] === flags[from]) continue;
    const chars = span.chars.slice(from, i);
    parts.push({
      ...span,
      text: chars.map((char) => char.c).join(""),
      box: unionBox(chars.map((char) => char.box)),
      chars,
      underline: flags[from] === true && chars.some((char) => char.c.trim() !== ""),
    });
    from = i;
  }
  return parts;
}

/** Rules and fills from the page's paths, through a device that sees every path drawn. */
function collectDrawing(page: mupdf.Page, bounds: mupdf.Rect): { rules: Rule[]; fills: Fill[] } {
  const rules: Rule[] = [];
  const fills: Fill[] = [];
  const pageArea = (bounds[2] - bounds[0]) * (bounds[3] - bounds[1]);
  const device = new mupdf.Device({
    strokePath(path, stroke, ctm, colorspace, color) {
      const width = stroke.getLineWidth() * Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));
      const hex = deviceColor(colorspace, color);
      for (const [a, b] of pathSegments(path, ctm)) {
        const rule = segmentRule(a, b, Math.max(width, 0.1), hex);
        if (rule !== null) rules.push(rule);
      }
    },
    fillPath(path, _evenOdd, ctm, colorspace, color) {
      const hex = deviceColor(colorspace, color);
      for (const box of pathRectangles(path, ctm)) {
        const w = box[2] - box[0];
        const h = box[3] - box[1];
        if (w <= 0 || h <= 0) continue;
        if (h <= RULE_THICKNESS && w > h * 2) {
          rules.push({
            orientation: "horizontal",
            at: (box[1] + box[3]) / 2,
            from: box[0],
            to: box[2],
            width: h,
            color: hex,
          });
        } else if (w <= RULE_THICKNESS && h > w * 2) {
          rules.push({
            orientation: "vertical",
            at: (box[0] + box[2]) / 2,
            from: box[1],
            to: box[3],
            width: w,
            color: hex,
          });
        } else if (w * h < pageArea * 0.9) {
          fills.push({ box, color: hex });
        }
      }
    },
  });
  try {
    page.run(device, mupdf.Matrix.identity);
  } finally {
    device.close();
    device.destroy();
  }
  return { rules, fills };
}

type Point = readonly [number, number];

function transformPoint(ctm: mupdf.Matrix, x: number, y: number): Point {
  return [ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]];
}

/** The straight segments of a path in page space (curves skipped). */
function pathSegments(path: mupdf.Path, ctm: mupdf.Matrix): [Point, Point][] {
  const segments: [Point, Point][] = [];
  let start: Point | null = null;
  let last: Point | null = null;
  path.walk({
    moveTo(x, y) {
      start = transformPoint(ctm, x, y);
      last = start;
    },
    lineTo(x, y) {
      const point = transformPoint(ctm, x, y);
      if (last !== null) segments.push([last, point]);
      last = point;
    },
    curveTo(_x1, _y1, _x2, _y2, x3, y3) {
      last = transformPoint(ctm, x3, y3);
    },
    closePath() {
      if (last !== null && start !== null) segments.push([last, start]);
      last = start;
    },
  });
  return segments;
}

/** The axis-aligned rectangles a filled path is made of (each closed 4-corner subpath). */
function pathRectangles(path: mupdf.Path, ctm: mupdf.Matrix): Box[] {
  const boxes: Box[] = [];
  let points: Point[] = [];
  let curved = false;
  const finish = () => {
    if (!curved && points.length >= 4 && points.length <= 5) {
      const xs = new Set(points.map((p) => Math.round(p[0] * 10)));
      const ys = new Set(points.map((p) => Math.round(p[1] * 10)));
      if (xs.size <= 2 && ys.size <= 2) boxes.push(unionBox(points.map((p) => [p[0], p[1], p[0], p[1]])));
    }
    points = [];
    curved = false;
  };
  path.walk({
    moveTo(x, y) {
      finish();
      points.push(transformPoint(ctm, x, y));
    },
    lineTo(x, y) {
      points.push(transformPoint(ctm, x, y));
    },
    curveTo() {
      curved = true;
    },
    closePath() {
      finish();
    },
  });
  finish();
  return boxes;
}

function segmentRule(a: Point, b: Point, width: number, color: string): Rule | null {
  const dx = Math.abs(a[0] - b[0]);
  const dy = Math.abs(a[1] - b[1]);
  if (dy <= 0.5 && dx > 1) {
    return {
      orientation: "horizontal",
      at: (a[1] + b[1]) / 2,
      from: Math.min(a[0], b[0]),
      to: Math.max(a[0], b[0]),
      width,
      color,
    };
  }
  if (dx <= 0.5 && dy > 1) {
    return {
      orientation: "vertical",
      at: (a[0] + b[0]) / 2,
      from: Math.min(a[1], b[1]),
      to: Math.max(a[1], b[1]),
      width,
      color,
    };
  }
  return null;
}

function deviceColor(colorspace: mupdf.ColorSpace, color: readonly number[]): string {
  try {
    return hexColor(color.slice(0, colorspace.getNumberOfComponents()));
  } catch {
    return "000000";
  }
}

function hexColor(color: readonly number[]): string {
  if (color.length === 1) return hexColor([color[0] ?? 0, color[0] ?? 0, color[0] ?? 0]);
  if (color.length === 4) {
    const [c = 0, m = 0, y = 0, k = 0] = color;
    return hexColor([(1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)]);
  }
  return color
    .slice(0, 3)
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, v)) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")
    .toUpperCase();
}

function toBox(rect: mupdf.Rect): Box {
  return [rect[0], rect[1], rect[2], rect[3]];
}

function quadBox(quad: mupdf.Quad): Box {
  const xs = [quad[0], quad[2], quad[4], quad[6]];
  const ys = [quad[1], quad[3], quad[5], quad[7]];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function shiftBox(box: Box, dx: number, dy: number): Box {
  return [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy];
}

function shiftRule(rule: Rule, dx: number, dy: number): Rule {
  return rule.orientation === "horizontal"
    ? { ...rule, at: rule.at + dy, from: rule.from + dx, to: rule.to + dx }
    : { ...rule, at: rule.at + dx, from: rule.from + dy, to: rule.to + dy };
}

function shiftBlock(block: PageBlock, dx: number, dy: number): PageBlock {
  if (block.type === "image") return { ...block, box: shiftBox(block.box, dx, dy) };
  return {
    ...block,
    box: shiftBox(block.box, dx, dy),
    lines: block.lines.map((line) => ({
      ...line,
      box: shiftBox(line.box, dx, dy),
      baseline: line.baseline + dy,
      spans: line.spans.map((span) => ({
        ...span,
        box: shiftBox(span.box, dx, dy),
        chars: span.chars.map((char) => ({
          ...char,
          box: shiftBox(char.box, dx, dy),
          x: char.x + dx,
          y: char.y + dy,
        })),
      })),
    })),
  };
}
