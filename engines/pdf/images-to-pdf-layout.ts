/**
 * Where an image goes on its page: A4 in the chosen orientation, the chosen margin on every side,
 * the image (as displayed, after its EXIF orientation) scaled to fit the area inside the margins
 * with its aspect ratio kept, and centred. Small images are scaled up, large ones down, so every
 * page is filled the same way whatever the camera's resolution.
 */
import type { Orientation } from "../image/exif-orientation.ts";

/** PostScript points per millimetre (72 per inch). */
const POINTS_PER_MM = 72 / 25.4;

/** ISO 216 A4: 210 × 297 mm. */
export const A4_POINTS = { width: 210 * POINTS_PER_MM, height: 297 * POINTS_PER_MM } as const;

export type MarginChoice = "none" | "small" | "large";
export type PageOrientation = "portrait" | "landscape";

/**
 * Space left blank on each side of the page: none 0; small 36 pt (½ inch, 12.7 mm), a usual
 * print-safe border; large 72 pt (1 inch, 25.4 mm), a document-style margin.
 */
export const MARGIN_POINTS: Readonly<Record<MarginChoice, number>> = { none: 0, small: 36, large: 72 };

/** PDF matrix [a b c d e f] mapping the image's unit square to page space. */
export type Matrix = readonly [number, number, number, number, number, number];

export interface ImagePlacement {
  readonly pageWidth: number;
  readonly pageHeight: number;
  /** The drawn image's box on the page (x, y from the bottom-left corner). */
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** The `cm` operand that draws the stored image upright in `box`. */
  readonly matrix: Matrix;
}

/**
 * Where the point (u, v) of the stored image (0..1, from its top-left corner) is shown after the
 * EXIF orientation (same coordinates on the displayed image).
 */
function orient(u: number, v: number, orientation: Orientation): [number, number] {
  switch (orientation) {
    case 2:
      return [1 - u, v];
    case 3:
      return [1 - u, 1 - v];
    case 4:
      return [u, 1 - v];
    case 5:
      return [v, u];
    case 6:
      return [1 - v, u];
    case 7:
      return [1 - v, 1 - u];
    case 8:
      return [v, 1 - u];
    default:
      return [u, v];
  }
}

export function placeImage(
  stored: { readonly width: number; readonly height: number },
  orientation: Orientation,
  options: { readonly margin: MarginChoice; readonly orientation: PageOrientation },
): ImagePlacement {
  const portrait = options.orientation === "portrait";
  const pageWidth = portrait ? A4_POINTS.width : A4_POINTS.height;
  const pageHeight = portrait ? A4_POINTS.height : A4_POINTS.width;
  const margin = MARGIN_POINTS[options.margin];
  // Orientations 5–8 turn the image a quarter: its displayed width is its stored height.
  const turned = orientation >= 5;
  const shownWidth = turned ? stored.height : stored.width;
  const shownHeight = turned ? stored.width : stored.height;
  const areaWidth = pageWidth - 2 * margin;
  const areaHeight = pageHeight - 2 * margin;
  const scale = Math.min(areaWidth / shownWidth, areaHeight / shownHeight);
  const width = shownWidth * scale;
  const height = shownHeight * scale;
  const box = { x: margin + (areaWidth - width) / 2, y: margin + (areaHeight - height) / 2, width, height };
  return { pageWidth, pageHeight, box, matrix: orientedMatrix(box, orientation) };
}

/** The `cm` operand that draws a stored image with its EXIF `orientation` upright in `box`. */
export function orientedMatrix(box: ImagePlacement["box"], orientation: Orientation): Matrix {
  // PDF draws an image's top row at y = 1 of its unit square: (s, t) is stored point (s, 1 - t).
  // The map from (s, t) to the page is affine, so three points fix it.
  const toPage = (s: number, t: number): [number, number] => {
    const [u, v] = orient(s, 1 - t, orientation);
    return [box.x + u * box.width, box.y + (1 - v) * box.height];
  };
  const [e, f] = toPage(0, 0);
  const [sx, sy] = toPage(1, 0);
  const [tx, ty] = toPage(0, 1);
  return [sx - e, sy - f, tx - e, ty - f, e, f];
}

/** A number we computed (a placement), for a content stream: rounded to 4 decimals, no exponent, no "-0". */
export function roundedPdfNumber(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

/** The page's content stream: draw XObject `name` with the placement's matrix. */
export function drawImageContent(name: string, matrix: Matrix): string {
  return `q ${matrix.map(roundedPdfNumber).join(" ")} cm /${name} Do Q\n`;
}
