/**
 * Signature images made in the browser, as PNGs with a transparent background: strokes drawn with
 * a pointer (smoothed), a name typed in a handwriting font or the user's script (the browser's
 * canvas shapes Devanagari, Telugu and Tamil correctly), or an uploaded picture whose near-white
 * background becomes transparent. Each is cropped to its ink with a small margin.
 */

/** A finished signature: its PNG and its aspect (height / width), for placing it on a page. */
export interface SignatureImage {
  readonly file: File;
  readonly url: string;
  readonly aspect: number;
}

export type Point = { readonly x: number; readonly y: number };
export type Stroke = readonly Point[];

/** Channel value from which a pixel counts as paper in an uploaded picture (made transparent). */
const PAPER = 225;
/** Margin around the ink, in pixels of the image. */
const MARGIN = 8;
/** Pixels per CSS pixel of drawn and typed signatures: sharp when printed small. */
export const SIGNATURE_SCALE = 3;

/**
 * Draws a stroke as a smooth curve: quadratic Bézier segments through the midpoints of successive
 * points, with each sampled point as control point (a single point is a dot).
 */
export function drawStroke(context: CanvasRenderingContext2D, stroke: Stroke): void {
  const [first, ...rest] = stroke;
  if (first === undefined) return;
  context.beginPath();
  context.moveTo(first.x, first.y);
  if (rest.length === 0) {
    context.lineTo(first.x + 0.01, first.y);
  } else {
    let previous = first;
    for (const point of rest) {
      const middle = { x: (previous.x + point.x) / 2, y: (previous.y + point.y) / 2 };
      context.quadraticCurveTo(previous.x, previous.y, middle.x, middle.y);
      previous = point;
    }
    context.lineTo(previous.x, previous.y);
  }
  context.stroke();
}

/** The box of the pixels with any opacity, or null when the canvas is empty. */
function inkBox(canvas: HTMLCanvasElement): { x: number; y: number; width: number; height: number } | null {
  const context = canvas.getContext("2d");
  if (context === null) return null;
  const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[(y * width + x) * 4 + 3] ?? 0) === 0) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  if (right < 0) return null;
  const x = Math.max(0, left - MARGIN);
  const y = Math.max(0, top - MARGIN);
  return {
    x,
    y,
    width: Math.min(width, right + MARGIN + 1) - x,
    height: Math.min(height, bottom + MARGIN + 1) - y,
  };
}

/** The canvas cropped to its ink as a PNG signature; null when nothing is drawn on it. */
export async function signatureFromCanvas(
  canvas: HTMLCanvasElement,
  name: string,
): Promise<SignatureImage | null> {
  const box = inkBox(canvas);
  if (box === null) return null;
  const cropped = document.createElement("canvas");
  cropped.width = box.width;
  cropped.height = box.height;
  cropped
    .getContext("2d")
    ?.drawImage(canvas, box.x, box.y, box.width, box.height, 0, 0, box.width, box.height);
  const blob = await new Promise<Blob | null>((resolve) => cropped.toBlob(resolve, "image/png"));
  if (blob === null) return null;
  const file = new File([blob], name, { type: "image/png" });
  return { file, url: URL.createObjectURL(file), aspect: box.height / box.width };
}

/** Strokes drawn on a canvas of `width`×`height` CSS pixels, rendered at SIGNATURE_SCALE. */
export function strokesCanvas(strokes: readonly Stroke[], width: number, height: number, color: string) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * SIGNATURE_SCALE);
  canvas.height = Math.round(height * SIGNATURE_SCALE);
  const context = canvas.getContext("2d");
  if (context === null) return canvas;
  context.scale(SIGNATURE_SCALE, SIGNATURE_SCALE);
  context.strokeStyle = color;
  context.lineWidth = 2.5;
  context.lineCap = "round";
  context.lineJoin = "round";
  for (const stroke of strokes) drawStroke(context, stroke);
  return canvas;
}

/**
 * A line of text rendered by the browser (which shapes every script) in `font` (a CSS font
 * family list), waiting for the font to load first.
 */
export async function textCanvas(text: string, family: string, color: string): Promise<HTMLCanvasElement> {
  const size = 48 * SIGNATURE_SCALE;
  const font = `${size}px ${family}`;
  await document.fonts.load(font, text).catch(() => undefined);
  const canvas = document.createElement("canvas");
  const measure = canvas.getContext("2d");
  if (measure === null) return canvas;
  measure.font = font;
  const metrics = measure.measureText(text);
  const ascent = Math.ceil(Math.max(metrics.actualBoundingBoxAscent, size * 0.8));
  const descent = Math.ceil(Math.max(metrics.actualBoundingBoxDescent, size * 0.3));
  const left = Math.ceil(Math.max(metrics.actualBoundingBoxLeft, 0));
  canvas.width = Math.max(
    1,
    Math.ceil(left + Math.max(metrics.actualBoundingBoxRight, metrics.width)) + 2 * MARGIN,
  );
  canvas.height = ascent + descent + 2 * MARGIN;
  const context = canvas.getContext("2d");
  if (context === null) return canvas;
  context.font = font;
  context.fillStyle = color;
  context.textBaseline = "alphabetic";
  context.fillText(text, MARGIN + left, MARGIN + ascent);
  return canvas;
}

/** Largest side of an uploaded picture once scaled for the signature (enough for print). */
const MAX_PICTURE_SIDE = 1600;

/**
 * An uploaded picture of a signature on a canvas with its paper made transparent: a pixel whose
 * channels are all near white becomes transparent, and the ones just darker fade in (no halo).
 * Null when the browser cannot decode it.
 */
export async function pictureCanvas(file: File): Promise<HTMLCanvasElement | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const scale = Math.min(1, MAX_PICTURE_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (context === null) return null;
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  clearPaper(image.data);
  context.putImageData(image, 0, 0);
  return canvas;
}

/** Makes near-white pixels of RGBA `data` transparent, fading the alpha over the last 40 levels. */
export function clearPaper(data: Uint8ClampedArray): void {
  const fade = 40;
  for (let i = 0; i < data.length; i += 4) {
    const lightest = Math.min(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0);
    if (lightest >= PAPER) data[i + 3] = 0;
    else if (lightest > PAPER - fade) {
      data[i + 3] = Math.round(((data[i + 3] ?? 255) * (PAPER - lightest)) / fade);
    }
  }
}
