import { AppError, type FileKind } from "../../contract/index.ts";
import { IMAGE_KINDS, type ImageKind, readImageSize } from "../../engines/image/image-info.ts";

/**
 * The most of an image's start that is buffered to find its size. PNG, WebP, GIF and BMP hold it in
 * their first bytes; a JPEG's frame header may follow large APP segments (EXIF thumbnails, ICC
 * profiles, Photoshop data), a TIFF's first directory or a HEIF's `meta` box may follow the image
 * data.
 */
export const MAX_IMAGE_HEAD_BYTES = 64 * 1024;

export function isImageKind(kind: FileKind): kind is ImageKind {
  return (IMAGE_KINDS as readonly FileKind[]).includes(kind);
}

/**
 * Kinds whose header may lie anywhere in the file. When it lies beyond MAX_IMAGE_HEAD_BYTES the size
 * is left to the engine, which reads the header from the whole file before any decoder runs (the
 * edge budget, conversion-plan.ts, images-to-pdf-image.ts, compress-image.ts).
 */
const MOVABLE_HEADER: readonly FileKind[] = ["jpeg", "tiff", "heic", "avif"];

/**
 * The stored size an image's header declares, from the start of the file. Null when more bytes are
 * needed; "container" when a movable header (MOVABLE_HEADER) lies beyond MAX_IMAGE_HEAD_BYTES; when
 * the whole file is there (`ended`), or MAX_IMAGE_HEAD_BYTES of a kind whose size sits at its start,
 * a header that cannot be read is refused with the header reader's IMAGE_DAMAGED.
 */
export function imageHeadSize(
  head: Uint8Array,
  ended: boolean,
  kind: FileKind,
): { width: number; height: number } | "container" | null {
  try {
    return readImageSize(head);
  } catch (error) {
    if (ended) throw error;
    // TIFF and HEIF readers say where the header they miss ends (`header_at`).
    const at = error instanceof AppError ? error.context?.header_at : undefined;
    const beyond =
      head.length >= MAX_IMAGE_HEAD_BYTES || (typeof at === "number" && at > MAX_IMAGE_HEAD_BYTES);
    if (beyond && MOVABLE_HEADER.includes(kind)) return "container";
    if (head.length < MAX_IMAGE_HEAD_BYTES) return null;
    throw error;
  }
}
