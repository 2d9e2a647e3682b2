/**
 * Images of a page as files Word embeds: decoded by MuPDF, brought to grey or RGB, written as
 * JPEG when they are large opaque colour pictures (photographs) and as PNG otherwise (line art,
 * transparency). Stencil masks and images too small to see are left out.
 */
import * as mupdf from "mupdf";
import type { ImageBlock } from "../structured-text.ts";
import type { Picture } from "./model.ts";

/** Images drawn smaller than this (points) on either side are dots and spacers. */
const MIN_SIDE = 4;
/** Largest image decoded (pixels); bigger ones are skipped rather than exhaust memory. */
const MAX_PIXELS = 40_000_000;

export function pictureOf(block: ImageBlock): Picture | null {
  const width = block.box[2] - block.box[0];
  const height = block.box[3] - block.box[1];
  if (width < MIN_SIDE || height < MIN_SIDE) return null;
  const image = block.image;
  try {
    if (image.getImageMask()) return null;
    if (image.getWidth() * image.getHeight() > MAX_PIXELS) return null;
    let pixmap = image.toPixmap();
    const colorspace = pixmap.getColorSpace();
    if (colorspace !== null && !colorspace.isGray() && !colorspace.isRGB()) {
      const converted = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
      pixmap.destroy();
      pixmap = converted;
    }
    const photo =
      pixmap.getAlpha() === 0 &&
      pixmap.getNumberOfComponents() >= 3 &&
      pixmap.getWidth() * pixmap.getHeight() > 90_000;
    const data = photo ? pixmap.asJPEG(85) : pixmap.asPNG();
    pixmap.destroy();
    return { type: "image", box: block.box, data: data.slice(), format: photo ? "jpg" : "png" };
  } catch {
    return null;
  }
}
