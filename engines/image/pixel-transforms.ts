/**
 * Operations on decoded 8-bit RGBA buffers: flattening transparency, applying EXIF orientation and
 * detecting grey images. They work in place where the geometry allows, to keep peak memory low.
 */
import type { Orientation } from "./exif-orientation.ts";
import type { RgbaImage } from "./image-codecs.ts";

/**
 * Composites every pixel over opaque white (alpha 255 afterwards). The blend is done on the stored
 * sRGB values, as browsers do when they show a transparent PNG on a white page. Returns whether
 * any pixel was not opaque.
 */
export function flattenOntoWhite(data: Uint8Array | Uint8ClampedArray): boolean {
  let blended = false;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] ?? 255;
    if (alpha === 255) continue;
    blended = true;
    // c × a / 255 + white × (255 - a) / 255, truncated as libvips' flatten does: the container's
    // sharp then gives the very same pixels (rounding instead differed by 1 on most blended pixels).
    for (let c = i; c < i + 3; c++) data[c] = Math.trunc(((data[c] ?? 0) * alpha) / 255 + 255 - alpha);
    data[i + 3] = 255;
  }
  return blended;
}

/** Whether every pixel has R = G = B, i.e. the image can be stored as one grey channel. */
export function isNeutralGrey(data: Uint8Array | Uint8ClampedArray): boolean {
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] !== data[i + 1] || data[i] !== data[i + 2]) return false;
  }
  return true;
}

/** Displayed size of a stored image under an EXIF orientation (5–8 swap the axes). */
export function orientedSize(width: number, height: number, orientation: Orientation): [number, number] {
  return orientation >= 5 ? [height, width] : [width, height];
}

/** 32-bit view of the pixels (one element per RGBA pixel); copies only a misaligned buffer. */
function pixelsOf(image: RgbaImage): Uint32Array {
  const { data } = image;
  const aligned = data.byteOffset % 4 === 0 ? data : new Uint8Array(data);
  return new Uint32Array(aligned.buffer, aligned.byteOffset, image.width * image.height);
}

/**
 * Turns a stored image into its displayed form under an EXIF orientation, so the result needs
 * orientation 1. Mirrors and the 180° turn (2, 3, 4) reuse the buffer; the quarter turns and
 * transposes (5–8) need a second one, and the first becomes garbage as soon as the caller drops it.
 */
export function applyOrientation(image: RgbaImage, orientation: Orientation): RgbaImage {
  if (orientation === 1) return image;
  const { width: w, height: h } = image;
  const source = pixelsOf(image);
  const bytes = (pixels: Uint32Array) => new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  if (orientation === 2) {
    for (let y = 0; y < h; y++) source.subarray(y * w, y * w + w).reverse();
    return { width: w, height: h, data: bytes(source) };
  }
  if (orientation === 3) return { width: w, height: h, data: bytes(source.reverse()) };
  if (orientation === 4) {
    const row = new Uint32Array(w);
    for (let top = 0, bottom = h - 1; top < bottom; top++, bottom--) {
      row.set(source.subarray(top * w, top * w + w));
      source.copyWithin(top * w, bottom * w, bottom * w + w);
      source.set(row, bottom * w);
    }
    return { width: w, height: h, data: bytes(source) };
  }
  // Output is h wide and w high. For output pixel (x, y) the source pixel is:
  // 5 transpose (x=y', y=x'), 6 rotate 90° clockwise (x=y', y=h-1-x'),
  // 7 transverse (x=w-1-y', y=h-1-x'), 8 rotate 90° anticlockwise (x=w-1-y', y=x').
  const out = new Uint32Array(w * h);
  const flipX = orientation === 7 || orientation === 8;
  const flipY = orientation === 6 || orientation === 7;
  for (let y = 0; y < w; y++) {
    const sx = flipX ? w - 1 - y : y;
    const row = y * h;
    for (let x = 0; x < h; x++) {
      const sy = flipY ? h - 1 - x : x;
      out[row + x] = source[sy * w + sx] ?? 0;
    }
  }
  return { width: h, height: w, data: bytes(out) };
}
