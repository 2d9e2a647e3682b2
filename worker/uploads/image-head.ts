import { AppError, type FileKind } from "../../contract/index.ts";
import { IMAGE_KINDS, type ImageKind, readImageInfo } from "../../engines/image/image-info.ts";

/**
 * The most of an image's start that is buffered to find its size. JPEG frame headers may follow
 * large APP segments (EXIF thumbnails, ICC profiles, Photoshop data), each up to 64 KiB.
 */
export const MAX_IMAGE_HEAD_BYTES = 2 * 1024 * 1024;

export function isImageKind(kind: FileKind): kind is ImageKind {
  return (IMAGE_KINDS as readonly FileKind[]).includes(kind);
}

/**
 * Kinds whose header may lie anywhere in the file: a TIFF's first directory often follows the
 * image data, a HEIF's `meta` box may follow `mdat`. When it lies beyond MAX_IMAGE_HEAD_BYTES the
 * size is left to the container, which reads the header from the whole file before decoding.
 */
const MOVABLE_HEADER: readonly FileKind[] = ["tiff", "heic", "avif"];

/** PNG: the signature then IHDR, whose data starts with the big-endian width and height. */
function pngSize(head: Uint8Array): { width: number; height: number } | null {
  if (head.length < 24) return null;
  const type = String.fromCharCode(...head.subarray(12, 16));
  if (type !== "IHDR") throw new AppError("IMAGE_DAMAGED", "PNG does not start with an IHDR chunk");
  const view = new DataView(head.buffer, head.byteOffset, 24);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The stored size an image's header declares, from the start of the file. Null when more bytes are
 * needed; "container" when the header lies beyond what is buffered (see MOVABLE_HEADER); when the
 * whole file is there (`ended`), a header that cannot be read is refused with the header reader's
 * IMAGE_DAMAGED.
 */
export function imageHeadSize(
  head: Uint8Array,
  ended: boolean,
  kind?: FileKind,
): { width: number; height: number } | "container" | null {
  if (head.length >= 8 && head[0] === 0x89 && head[1] === 0x50) return pngSize(head);
  try {
    const { width, height } = readImageInfo(head);
    return { width, height };
  } catch (error) {
    if (ended) throw error;
    const at = error instanceof AppError ? error.context?.header_at : undefined;
    if (kind && MOVABLE_HEADER.includes(kind) && typeof at === "number" && at > MAX_IMAGE_HEAD_BYTES) {
      return "container";
    }
    return null;
  }
}
