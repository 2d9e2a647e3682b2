/**
 * What each Compress PDF level does to images. Resolution is the effective resolution of an image
 * where it is drawn largest on a page (pixels per inch of paper); an image above `downsampleAbove`
 * is resampled to `targetDpi`. Photos (and images already stored lossy) are re-encoded with
 * MozJPEG at `jpegQuality`. The margin between the two resolutions keeps images that are only a
 * little over the target untouched (resampling them would cost quality for little size).
 * Path coordinates in content streams keep `pathDigits` significant digits (compress-content.ts).
 *
 * - low: screen reading only (96 ppi, the resolution of a desktop screen at 100 % zoom).
 * - medium: screen and ordinary office printing (150 ppi).
 * - high: close to the original (220 ppi, what a sharp laptop screen or a good print needs).
 */
export const COMPRESSION_LEVELS = {
  low: { targetDpi: 96, downsampleAbove: 120, jpegQuality: 55, pathDigits: 5 },
  medium: { targetDpi: 150, downsampleAbove: 190, jpegQuality: 65, pathDigits: 5 },
  high: { targetDpi: 220, downsampleAbove: 280, jpegQuality: 85, pathDigits: 6 },
} as const satisfies Record<string, CompressionLevel>;

export interface CompressionLevel {
  readonly targetDpi: number;
  readonly downsampleAbove: number;
  readonly jpegQuality: number;
  readonly pathDigits: number;
}

export type CompressionLevelName = keyof typeof COMPRESSION_LEVELS;
